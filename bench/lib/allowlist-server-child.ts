// Child process of `npm run bench:allowlist`: the whole app as main.ts builds it (production build
// of the page, real store, geo, limits), with the content file's wallet in allowlist mode, which
// the shipped content file is not. Production reads its content from the file only; the bench
// passes its own through buildApp's `content`, the seam the tests use.
import http from 'node:http';
import path from 'node:path';
import { siteContent } from '../../content/site-content.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadEnv } from '../../src/server/env.ts';
import { createGeoLookup } from '../../src/server/geo/geo-lookup.ts';
import { loadSiteBuild } from '../../src/server/features/site/site-build.ts';
import { openStore } from '../../src/server/store/database.ts';
import { secretBoxFromEnv } from '../../src/server/store/data-keys.ts';
import { migrateToLatest } from '../../src/server/store/migrate.ts';
import { parseSiteContent } from '../../src/shared/content-schema.ts';

const env = loadEnv(process.env);
const secrets = secretBoxFromEnv(env);
const store = await openStore(env.DATABASE_URL ?? '');
await migrateToLatest(store.db, { secrets });
const app = await buildApp({
  env,
  build: await loadSiteBuild(path.resolve(import.meta.dirname, '../../dist')),
  store,
  geo: await createGeoLookup(),
  secrets,
  content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
  runJobs: true,
});
await app.listen({ port: env.PORT, host: env.HOST });
// The same app once more through Fastify's own handler alone (what its fast paths hand requests
// to), so the bench can set the proof route with and without its fast path side by side in one
// run (decision 0049).
const routeOnlyPort = Number(process.env.ROUTE_ONLY_PORT ?? '0');
if (routeOnlyPort > 0) {
  const routeOnly = http.createServer((req, res) => app.routing(req, res));
  routeOnly.keepAliveTimeout = app.server.keepAliveTimeout;
  routeOnly.listen(routeOnlyPort, env.HOST);
}
const stop = () => void app.close().then(() => store.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
