// The PostgreSQL database of the browser tests' second server (playwright.config.ts). A database
// of its own, not a schema as the Vitest store tests use: the server under test is the shipped
// one (`node dist/server/main.js`), which takes a DATABASE_URL and nothing more, and runs its
// migrations in the database's default schema.
//
// `node --import tsx e2e/postgres-database.ts create` (the server's start command) makes the
// database DATABASE_URL names, after dropping those that runs which died left behind; the default
// export (Playwright's global teardown) drops this run's. Never another live run's: two checkouts
// may test against one server at once, so a name carries its run's start time.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const PREFIX = 'e2e_';
const NAME = /^e2e_([0-9]+)_[0-9a-f]{4}$/;
// No browser test run lasts this long; a database older than this was left by a run that died.
const STALE_AFTER_S = 3 * 60 * 60;

/** `e2e_<run start, Unix seconds>_<4 hex digits>`. */
export const e2eDatabaseName = (nowMs: number): string =>
  `${PREFIX}${Math.floor(nowMs / 1000)}_${randomBytes(2).toString('hex')}`;

/** The server URL with its database swapped for `name`. */
export function e2eDatabaseUrl(serverUrl: string, name: string | undefined): string {
  if (!name || !NAME.test(name))
    throw new Error(`E2E_PG_DATABASE must look like e2e_<seconds>_<hex>, not "${name ?? ''}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` on a connection to the same server's maintenance database (`postgres`). */
async function onServer(databaseUrl: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

// Names come from NAME (checked) or the catalogue, so quoting them is all the escaping needed.
const drop = (client: pg.Client, name: string) => client.query(`drop database if exists "${name}" with (force)`);

export async function createE2eDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!NAME.test(name)) throw new Error(`Not an e2e database name: ${name}`);
  await onServer(databaseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
      `${PREFIX}%`,
    ]);
    const staleBefore = Date.now() / 1000 - STALE_AFTER_S;
    for (const { datname } of rows) {
      const startedAt = NAME.exec(datname)?.[1];
      if (startedAt && Number(startedAt) < staleBefore) await drop(client, datname);
    }
    await client.query(`create database "${name}"`);
  });
}

/** Playwright's global teardown: drops this run's database (the server may still hold connections). */
export default async function dropThisRunsDatabase(): Promise<void> {
  const server = process.env.TEST_POSTGRES_URL;
  const name = process.env.E2E_PG_DATABASE;
  if (!server || !name || !NAME.test(name)) return;
  await onServer(server, async (client) => {
    await drop(client, name);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] === 'create') {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  await createE2eDatabase(url);
}
