import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { TEST_SCHEMA_PREFIX } from './test-store.ts';

// Runs once around the Vitest run. Says plainly when the PostgreSQL half of the store tests is
// skipped (so a green laptop run is not mistaken for a PostgreSQL-tested one), and drops throwaway
// test schemas: this run's own after it, and before it those older than any run lasts (a crashed
// run's leftovers). Never another live run's: two checkouts may test against one server at once
// (from sandboxes that cannot see each other's processes), and a DROP racing a migrator's
// catalogue lookup fails it. So a schema's name carries its run's start time and tag.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run's PostgreSQL schemas: `t_<run start, Unix seconds>_<run tag>_…`. */
    pgSchemaRun: string;
  }
}

// No test run lasts this long; a schema older than this was left by a run that died.
const STALE_AFTER_S = 3 * 60 * 60;
const runTag = `${Math.floor(Date.now() / 1000)}_${randomBytes(2).toString('hex')}`;

async function dropTestSchemas(url: string, which: (startedAt: number, run: string) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname ~ $1', [
      `^${TEST_SCHEMA_PREFIX}[0-9]+_[0-9a-f]{4}_[0-9a-f]{12}$`,
    ]);
    for (const { nspname } of rows) {
      const [startedAt = '0', tag = ''] = nspname.slice(TEST_SCHEMA_PREFIX.length).split('_');
      if (which(Number(startedAt), `${startedAt}_${tag}`))
        await client.query(`drop schema if exists ${nspname} cascade`);
    }
  } finally {
    await client.end();
  }
}

// Most server tests render the page from source (source-build.ts) and need no build. A few are
// about the built files or run the built server as `npm start` does (site-build, console-page,
// main, broadcast-restart, the shared limits, integration/): on a clean clone the build is made
// here, once, before any of them; an existing dist/ is used as it is (`npm test` builds first).
const root = path.resolve(import.meta.dirname, '../../..');
const builtFiles = [
  'dist/client/.vite/manifest.json',
  'dist/ssr/entry-server.js',
  'dist/admin/.vite/manifest.json',
  'dist/server/main.js',
];

function buildWhenMissing(): void {
  if (builtFiles.every((f) => existsSync(path.join(root, f)))) return;
  console.log('No build in dist/: building it for the tests of the built site and server (npm run build).');
  // Without Vitest's NODE_ENV=test, which would make Vite bundle React's development build.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV'));
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) throw new Error('`npm run build` failed; the tests of the built site and server need it.');
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide('pgSchemaRun', runTag);
  buildWhenMissing();
  console.log(
    process.env.TEST_REDIS_URL
      ? 'Shared-limit (Redis) tests run against TEST_REDIS_URL, each under a key prefix of its own.'
      : 'Shared-limit (Redis) tests are SKIPPED: TEST_REDIS_URL is not set (CI sets it; e.g. TEST_REDIS_URL=redis://127.0.0.1:6379 npm test).',
  );
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) {
    console.log(
      'PostgreSQL store tests are SKIPPED: TEST_POSTGRES_URL is not set (CI sets it; e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm test).',
    );
    return undefined;
  }
  console.log(`PostgreSQL store tests run against ${url.replace(/\/\/[^@]*@/, '//…@')}`);
  await dropTestSchemas(url, (startedAt) => startedAt < Date.now() / 1000 - STALE_AFTER_S);
  return () => dropTestSchemas(url, (_startedAt, run) => run === runTag);
}
