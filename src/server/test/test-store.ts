import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openStore, type Dialect, type Store } from '../store/database.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { secretBoxFromEnv } from '../store/data-keys.ts';
import { loadEnv } from '../env.ts';
import type { SecretBox } from '../store/secret-box.ts';

/** The data keys of this test file (setup-env.ts puts DATA_KEY in the environment). */
export const testSecrets = (): SecretBox =>
  secretBoxFromEnv(loadEnv({ NODE_ENV: 'test', DATA_KEY: process.env.DATA_KEY }));

// Storage is tested against real databases: a throwaway SQLite file, and when TEST_POSTGRES_URL
// is set (CI always sets it) a throwaway schema on that PostgreSQL server.
export const testPostgresUrl = process.env.TEST_POSTGRES_URL || undefined;

/** Every throwaway PostgreSQL schema is named this, the test run's tag (see global-setup.ts) and 12 hex digits. */
export const TEST_SCHEMA_PREFIX = 't_';

export const dialectCases: { dialect: Dialect; skip: boolean; label: string }[] = [
  { dialect: 'sqlite', skip: false, label: 'sqlite' },
  {
    dialect: 'postgres',
    skip: !testPostgresUrl,
    label: testPostgresUrl ? 'postgres' : 'postgres (skipped: set TEST_POSTGRES_URL to run)',
  },
];

export interface TestStore extends Store {
  /** Closes the store and deletes its data. */
  destroy(): Promise<void>;
  /** The URL another connection (a second instance) can open. */
  url: string;
  pgSchema?: string;
}

export async function openTestStore(dialect: Dialect, opts: { migrate?: boolean } = {}): Promise<TestStore> {
  let store: Store;
  let url: string;
  let cleanup: () => Promise<void>;
  let pgSchema: string | undefined;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-test-'));
    url = `sqlite:${path.join(dir, 'test.sqlite')}`;
    // As the server opens it (main.ts): writes and transactions on the writer's thread, reads on
    // this one, so every store test (the races above all) runs the serving path (decision 0067).
    store = await openStore(url, { writerThread: true });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    if (!testPostgresUrl) throw new Error('TEST_POSTGRES_URL is not set');
    url = testPostgresUrl;
    pgSchema = `${TEST_SCHEMA_PREFIX}${inject('pgSchemaRun')}_${randomBytes(6).toString('hex')}`;
    store = await openStore(url, { pgSchema });
    // Not dropped here: one DROP SCHEMA … CASCADE per test costs more than the Vitest global
    // setup's single sweep of every test schema before and after the run (a store introspects
    // only its own schema, so the others waiting there cost its migrations nothing).
    cleanup = async () => undefined;
  }
  if (opts.migrate !== false) {
    const schema = pgSchema;
    await withLongStatements({ db: store.db, url, ...(schema ? { pgSchema: schema } : {}) }, (db) =>
      migrateToLatest(db, { ...(schema ? { pgSchema: schema } : {}), secrets: testSecrets() }),
    );
  }
  return {
    ...store,
    url,
    ...(pgSchema ? { pgSchema } : {}),
    async destroy() {
      await store.close();
      await cleanup();
    },
  };
}

/**
 * Runs `work` (migrations) on a connection without the serving pool's 5 s statement timeout, as
 * `npm run db:migrate` and main.ts migrate. The migrator introspects every schema on the server,
 * and with a whole run's test schemas there on a busy CI machine that took longer ("Query read
 * timeout"). SQLite has no such timeout: the store's own connection serves.
 */
export async function withLongStatements<T>(
  store: { db: Store['db']; url: string; pgSchema?: string },
  work: (db: Store['db']) => Promise<T>,
): Promise<T> {
  if (!store.pgSchema) return work(store.db);
  const migrating = await openStore(store.url, { pgSchema: store.pgSchema, longStatements: true });
  try {
    return await work(migrating.db);
  } finally {
    await migrating.close();
  }
}

/** The names of a store's own tables, whatever is added later (the store introspects its own schema only). */
export async function tablesOf(store: { db: Store['db'] }): Promise<string[]> {
  return (await store.db.introspection.getTables()).map((t) => t.name);
}

/**
 * The DATABASE_URL a server process needs to use a test store: its SQLite file, or the PostgreSQL
 * server with the store's schema as its search_path (pg reads `options` from the URL). The schema
 * must be migrated already (openTestStore does), so its migration bookkeeping lives in it.
 */
export function serverDatabaseUrl(store: Pick<TestStore, 'url' | 'pgSchema'>): string {
  if (!store.pgSchema) return store.url;
  const url = new URL(store.url);
  url.searchParams.set('options', `-c search_path=${store.pgSchema}`);
  return url.toString();
}

/** A clock tests move by hand. */
export function testClock(start = '2026-11-21T12:00:00.000Z') {
  let now = Date.parse(start);
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (iso: string) => {
    now = Date.parse(iso);
  };
  return clock;
}
