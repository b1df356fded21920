import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingAuditTriggers } from './features/audit/index.ts';
import { buildApp } from './app.ts';
import { EnvError, loadEnv } from './env.ts';
import { errorText, redact } from './lib/log-safe.ts';
import { createGeoLookup } from './geo/geo-lookup.ts';
import { loadSiteBuild } from './features/site/index.ts';
import { openStore } from './store/database.ts';
import { migrateToLatest } from './store/migrate.ts';
import { DataKeyError, secretBoxFromEnv } from './store/data-keys.ts';

/** A start failure that is the operator's to fix (configuration, a database out of reach): words, no stack. */
class StartError extends Error {}

// dist/server/main.js when built, src/server/main.ts under tsx: the build sits in dist/ either way.
function findDist(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..'), path.resolve(here, '../../dist')];
  return candidates.find((d) => existsSync(path.join(d, 'client'))) ?? path.resolve('dist');
}

// The process: read the environment, open what the app is given, serve, and stop cleanly.
async function main(): Promise<void> {
  const env = loadEnv();
  // Before anything is opened: without a data key (production) the start stops here, in words.
  const secrets = secretBoxFromEnv(env);
  const build = await loadSiteBuild(findDist());
  // Migrations on a store of their own, without the serving store's statement time limit: a
  // migration may rightly run for minutes on a large list.
  const store = await openStore(env.DATABASE_URL, { longStatements: true })
    .then(async (migrating) => {
      try {
        await migrateToLatest(migrating.db, { secrets });
      } finally {
        await migrating.close();
      }
      // SQLite: checkpoints and every write on threads of their own, so the event loop never
      // waits for the disk (decisions 0051, 0067).
      return openStore(env.DATABASE_URL, { backgroundCheckpoints: true, writerThread: true });
    })
    .catch((error: unknown) => {
      throw new StartError(
        `The server could not start: the database in DATABASE_URL could not be opened: ${errorText(error)}`,
      );
    });
  const geo = await createGeoLookup(
    env.GEO_LOOKUP_URL
      ? { remote: { url: env.GEO_LOOKUP_URL, ...(env.GEO_LOOKUP_TOKEN ? { token: env.GEO_LOOKUP_TOKEN } : {}) } }
      : {},
  );
  const app = await buildApp({ env, build, store, geo, secrets, runJobs: true });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, answer 503 to late requests, finish in-flight requests and commits, stop the
    // jobs (last visit flush, outbox leases let go), then close what main opened; force after 10 s.
    setTimeout(() => process.exit(1), 10_000).unref();
    app
      .close()
      .then(async () => {
        geo.close();
        await store.close();
      })
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    `Diamond Hand is up at ${env.PUBLIC_URL} (store: ${store.description}; secrets sealed with the key from ${secrets.source}; mail: ${app.mailer.description}; limits: ${app.redis ? 'shared in Redis' : 'per instance'})`,
  );
  // The audit log's guard triggers, checked at every start: one dropped or disabled below the app
  // (SQLite has no privilege to stop that) is said here; `npm run audit:verify` walks the chain.
  const unguarded = await missingAuditTriggers(store.db).catch(() => []);
  if (unguarded.length) {
    app.log.error(
      `The audit log's guard triggers are missing or disabled (${unguarded.join(', ')}): the schema was changed below the app. Run npm run audit:verify.`,
    );
  }
}

// Whatever the configuration holds that must not be printed: whole values, and the passwords
// inside URLs (as written and decoded), in case an error quotes either.
function configuredSecrets(source: NodeJS.ProcessEnv): string[] {
  const secrets: string[] = [];
  for (const name of [
    'DATABASE_URL',
    'SMTP_URL',
    'REDIS_URL',
    'APP_SECRET',
    'DATA_KEY',
    'DATA_KEY_PREVIOUS',
    'GEO_LOOKUP_TOKEN',
    'GEO_LOOKUP_URL',
  ]) {
    const value = source[name];
    if (!value) continue;
    secrets.push(value);
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*?:([^/@\s]*)@/i.exec(value)?.[1];
    if (password) {
      secrets.push(password);
      try {
        secrets.push(decodeURIComponent(password));
      } catch {
        // Not percent-encoded properly: the raw form is all there is to hide.
      }
    }
  }
  return secrets;
}

main().catch((error: unknown) => {
  // A bad configuration is the operator's to fix: say what, in words. Anything else is a bug and
  // keeps its stack for whoever fixes it. Either way no configured secret is printed, even when a
  // driver's error quotes it.
  const text =
    error instanceof EnvError || error instanceof StartError
      ? error.message
      : error instanceof DataKeyError
        ? `The server cannot start. ${error.message}`
        : `The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  process.stderr.write(`${redact(text, configuredSecrets(process.env))}\n`);
  process.exit(1);
});
