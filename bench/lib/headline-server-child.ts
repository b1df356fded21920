// Child process of `npm run bench:headline`: the server as src/server/main.ts starts it (migrations
// on a store of their own, then the serving store with background checkpoints, geo, jobs), but
// with the content file's wallet in allowlist mode, which the shipped content file is not, so a
// launch's proofs are part of the mix. Production reads its content from the file only; the bench
// passes its own through buildApp's `content`, the seam the tests use. Run under tsx: the request
// path is plain JavaScript once loaded. Also started as each instance of the cluster set-up.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { siteContent } from '../../content/site-content.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadEnv } from '../../src/server/env.ts';
import { createGeoLookup } from '../../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../../src/server/features/site/index.ts';
import { openStore } from '../../src/server/store/database.ts';
import { secretBoxFromEnv } from '../../src/server/store/data-keys.ts';
import { migrateToLatest } from '../../src/server/store/migrate.ts';
import { parseSiteContent } from '../../src/shared/content-schema.ts';
import { EVENT_LOOP_PATH } from './event-loop-stalls.ts';

const env = loadEnv(process.env);
const secrets = secretBoxFromEnv(env);
const migrating = await openStore(env.DATABASE_URL, { longStatements: true });
try {
  await migrateToLatest(migrating.db, { secrets });
} finally {
  await migrating.close();
}
// As main.ts opens it; BENCH_WRITER_THREAD=0 keeps SQLite's writes on the event loop and
// BENCH_CHECKPOINTER=0 its checkpoints in the COMMIT, for the on/off turns of decision 0067.
const store = await openStore(env.DATABASE_URL, {
  backgroundCheckpoints: process.env.BENCH_CHECKPOINTER !== '0',
  writerThread: process.env.BENCH_WRITER_THREAD !== '0',
});
const geo = await createGeoLookup();
const app = await buildApp({
  env,
  build: await loadSiteBuild(path.resolve(import.meta.dirname, '../../dist')),
  store,
  geo,
  secrets,
  content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
  runJobs: true,
});
// The event loop's stalls, for the bench's stall row (issue 40): a histogram of how late a 1 ms
// timer ran, read and reset around each step at a route only this child has.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
app.post(EVENT_LOOP_PATH, async (request) => {
  const ns = (v: number) => v / 1e6;
  const figures = { maxMs: ns(loop.max), p999Ms: ns(loop.percentile(99.9)), p99Ms: ns(loop.percentile(99)) };
  if ((request.query as { reset?: string }).reset !== undefined) loop.reset();
  return figures;
});
await app.listen({ port: env.PORT, host: env.HOST });
const stop = () =>
  void app
    .close()
    .then(async () => {
      geo.close();
      await store.close();
    })
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
