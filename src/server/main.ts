import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGeoLookup } from './analytics/geo/geo-lookup.ts';
import { purgeAnalytics } from './analytics/retention.ts';
import { buildApp } from './app.ts';
import { EnvError, loadEnv } from './env.ts';
import { loadSiteBuild } from './site/site-build.ts';
import { openStore } from './store/database.ts';
import { migrateToLatest } from './store/migrate.ts';
import { errorText } from './lib/error-text.ts';

// dist/server/main.js when built, src/server/main.ts under tsx: the build sits in dist/ either way.
function findDist(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..'), path.resolve(here, '../../dist')];
  return candidates.find((d) => existsSync(path.join(d, 'client'))) ?? path.resolve('dist');
}

// Retention runs at start and hourly; several instances doing it at once is harmless (deletes).
function startMaintenance(app: Awaited<ReturnType<typeof buildApp>>, retentionDays: number): void {
  const run = () =>
    purgeAnalytics(app.dh.store.db, app.dh.salts, new Date(), retentionDays).catch((error: unknown) =>
      app.log.warn({ err: errorText(error) }, 'analytics retention failed'),
    );
  void run();
  const timer = setInterval(() => void run(), 60 * 60 * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

async function main(): Promise<void> {
  const env = loadEnv();
  const build = await loadSiteBuild(findDist());
  const store = await openStore(env.DATABASE_URL);
  await migrateToLatest(store.db);
  const geo = await createGeoLookup(
    env.GEO_LOOKUP_URL ? { remote: { url: env.GEO_LOOKUP_URL, ...(env.GEO_LOOKUP_TOKEN ? { token: env.GEO_LOOKUP_TOKEN } : {}) } } : {},
  );
  const app = await buildApp({ env, build, store, geo });
  app.addHook('onClose', async () => {
    geo.close();
    await store.close();
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Finish in-flight requests and commits, refuse new ones (503), then exit; force after 10 s.
    setTimeout(() => process.exit(1), 10_000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  startMaintenance(app, env.VISIT_RETENTION_DAYS);
  await app.listen({ port: env.PORT, host: env.HOST });
  app.dh.worker.start();
  app.log.info(`Diamond Hand is up at ${env.PUBLIC_URL} (store: ${store.description}; mail: ${app.dh.mailer.description})`);
}

main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say what, in words. Anything else is a bug and
  // keeps its stack for whoever fixes it.
  if (error instanceof EnvError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
