import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup, repoRoot } from './processes.ts';

/** The PostgreSQL server a bench may use: the one the tests use unless told otherwise. */
export const postgresBaseUrl = (): string =>
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** `url` with another database name in its path. */
const withDatabase = (url: string, database: string): string => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** For output: no password (and nothing at all of a URL that does not parse, which may hold one). */
export const redactUrl = (url: string): string => {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
};

/**
 * The maintenance connection must be on this machine, like every other target of a bench: a
 * typo in BENCH_POSTGRES_URL must not create databases somewhere else.
 */
function assertLocalPostgres(url: string): void {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') {
    throw new Error(`Benchmarks only use a PostgreSQL server on 127.0.0.1, not ${hostname}`);
  }
}

export interface ScratchDatabase {
  name: string;
  /** Connection URL of the scratch database, for the server's DATABASE_URL. */
  url: string;
  /** Settings that decide what a commit costs, e.g. "fsync=on, synchronous_commit=on". */
  durability: string;
  /** Pids of the server processes (backends) connected to the scratch database now. */
  backendPids: () => Promise<number[]>;
  /** Runs one query on the scratch database, on a connection of its own. */
  query: <R extends pg.QueryResultRow>(sql: string) => Promise<R[]>;
  /** Drops the database, closing whatever is still connected to it. Safe to call twice. */
  drop: () => Promise<void>;
}

/**
 * Drops `name` from a fresh node process and waits for it: the synchronous clean-up that runs on
 * Ctrl-C or from the watchdog, when an async drop could no longer finish.
 */
function dropSync(adminUrl: string, name: string): void {
  const script = `
    import pg from 'pg';
    const client = new pg.Client({ connectionString: process.env.ADMIN_URL, connectionTimeoutMillis: 3000 });
    await client.connect();
    await client.query('drop database if exists "' + process.env.DB_NAME + '" with (force)');
    await client.end();`;
  spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...process.env, ADMIN_URL: adminUrl, DB_NAME: name },
    timeout: 10_000,
    stdio: 'ignore',
  });
}

/**
 * A database of its own for one bench run, created on the server of `baseUrl` through its
 * `postgres` maintenance database and dropped afterwards, so a run never touches the tests' data
 * and leaves nothing behind. Rejects (with the driver's reason) when the server is unreachable.
 */
export async function createScratchDatabase(baseUrl: string): Promise<ScratchDatabase> {
  assertLocalPostgres(baseUrl);
  const adminUrl = withDatabase(baseUrl, 'postgres');
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  // A connection lost later is reported by the next query; it must not crash the bench.
  admin.on('error', () => undefined);
  await admin.connect();

  // Random, and only [a-z0-9_], so it is safe to quote into the statements below.
  const name = `dh_bench_${randomBytes(6).toString('hex')}`;
  let dropped = false;
  let unregister: () => void = () => undefined;
  try {
    await admin.query(`create database "${name}"`);
    unregister = onCleanup(() => dropSync(adminUrl, name));
    const settings = await admin.query<{ name: string; setting: string }>(
      `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'wal_sync_method') order by name`,
    );
    const url = withDatabase(baseUrl, name);
    return {
      name,
      url,
      durability: settings.rows.map((r) => `${r.name}=${r.setting}`).join(', '),
      backendPids: async () => {
        const res = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name]);
        return res.rows.map((r) => r.pid);
      },
      query: async <R extends pg.QueryResultRow>(sql: string) => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
        client.on('error', () => undefined);
        await client.connect();
        try {
          return (await client.query<R>(sql)).rows;
        } finally {
          await client.end();
        }
      },
      drop: async () => {
        if (dropped) return;
        dropped = true;
        try {
          await admin.query(`drop database if exists "${name}" with (force)`);
          unregister();
        } finally {
          await admin.end().catch(() => undefined);
        }
      },
    };
  } catch (error) {
    // Creating or inspecting failed: leave nothing behind.
    await admin.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
    unregister();
    await admin.end().catch(() => undefined);
    throw error;
  }
}
