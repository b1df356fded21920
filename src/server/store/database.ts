import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Where the data lives, without credentials, for logs. */
  description: string;
  close: () => Promise<void>;
}

export const DEFAULT_SQLITE_PATH = 'data/dh.sqlite';

/** `undefined` → data/dh.sqlite; `sqlite:<path>` → that file; `postgres://…` → PostgreSQL. */
export function parseDatabaseUrl(url: string | undefined): { dialect: Dialect; target: string } {
  if (url === undefined || url === '') return { dialect: 'sqlite', target: DEFAULT_SQLITE_PATH };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, such as sqlite:data/dh.sqlite');
    return { dialect: 'sqlite', target: file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', target: url };
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

export interface OpenOptions {
  /** PostgreSQL only: a schema to use (and create), so tests can run side by side. */
  pgSchema?: string;
  pgPoolSize?: number;
}

export async function openStore(url: string | undefined, opts: OpenOptions = {}): Promise<Store> {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === 'sqlite') {
    if (target !== ':memory:') mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    const sqlite = new SqliteDatabase(target);
    // WAL lets readers run beside the writer; synchronous=FULL makes every commit durable before
    // we answer (https://www.sqlite.org/pragma.html#pragma_synchronous).
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect, description: `sqlite:${target}`, close: () => db.destroy() };
  }

  const schema = opts.pgSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Bad schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: target,
    max: opts.pgPoolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  if (schema) await db.schema.createSchema(schema).ifNotExists().execute();
  const u = new URL(target);
  return {
    db,
    dialect,
    description: `postgres://${u.host}${u.pathname}${schema ? ` (schema ${schema})` : ''}`,
    close: () => db.destroy(),
  };
}
