import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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

/**
 * Runs a migration again when it failed only because another test run's schema vanished under it.
 * Kysely's migrator introspects every schema's tables; two checkouts may test against one server
 * at once, and each drops its own run's schemas when it ends, so a catalogue lookup here can meet
 * a schema that was there a moment ago ("schema t_… does not exist", 3F000). Never our own
 * schema's absence: that is a real failure.
 */
export async function untilNoSchemaVanishes<T>(ours: string | undefined, run: () => Promise<T>): Promise<T> {
  const vanished = (error: unknown): boolean => {
    const text = error instanceof Error ? error.message : '';
    const name = /schema "([^"]+)" does not exist/.exec(text)?.[1];
    if (name !== undefined) return name !== ours && name.startsWith(TEST_SCHEMA_PREFIX);
    // The introspection asks pg_get_serial_sequence of every column in every schema, and another
    // test's migration dropping a column (0024 drops one) between the catalog read and that call
    // fails it with this message, which names no schema. Our own migration failing so would fail
    // again on every try, and be thrown after the last.
    return /column "[^"]+" of relation "[^"]+" does not exist/.test(text);
  };
  // Several checkouts finishing short runs one after another can make a few tries in a row meet a
  // vanishing schema, so try often, a little apart (random, so two waiting migrators drift apart).
  const attempts = 20;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await run();
      // A Migrator's own answer carries its error instead of throwing it.
      const carried = (result as { error?: unknown } | undefined)?.error;
      if (attempt < attempts && vanished(carried)) {
        await delay(50 + Math.random() * 200);
        continue;
      }
      return result;
    } catch (error) {
      if (attempt < attempts && vanished(error)) {
        await delay(50 + Math.random() * 200);
        continue;
      }
      throw error;
    }
  }
}

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
    store = await openStore(url);
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    if (!testPostgresUrl) throw new Error('TEST_POSTGRES_URL is not set');
    url = testPostgresUrl;
    pgSchema = `${TEST_SCHEMA_PREFIX}${inject('pgSchemaRun')}_${randomBytes(6).toString('hex')}`;
    store = await openStore(url, { pgSchema });
    // Not dropped here: a DROP SCHEMA running while another test file's migrator introspects the
    // catalogue makes that introspection fail ("schema … does not exist"). The Vitest global
    // setup drops every test schema before and after the run instead.
    cleanup = async () => undefined;
  }
  if (opts.migrate !== false) {
    const schema = pgSchema;
    await withLongStatements({ db: store.db, url, ...(schema ? { pgSchema: schema } : {}) }, (db) =>
      untilNoSchemaVanishes(schema, () =>
        migrateToLatest(db, { ...(schema ? { pgSchema: schema } : {}), secrets: testSecrets() }),
      ),
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
