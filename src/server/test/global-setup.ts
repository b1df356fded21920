import pg from 'pg';
import { TEST_SCHEMA_PREFIX } from './test-store.ts';

// Runs once around the Vitest run. Says plainly when the PostgreSQL half of the store tests is
// skipped (so a green laptop run is not mistaken for a PostgreSQL-tested one), and drops the
// throwaway test schemas before and after the run — never during it, when a DROP would race
// another test file's migrations.
async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname ~ $1', [
      `^${TEST_SCHEMA_PREFIX}[0-9a-f]{12}$`,
    ]);
    for (const { nspname } of rows) await client.query(`drop schema if exists ${nspname} cascade`);
  } finally {
    await client.end();
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) {
    console.log(
      'PostgreSQL store tests are SKIPPED: TEST_POSTGRES_URL is not set (CI sets it; e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm test).',
    );
    return undefined;
  }
  console.log(`PostgreSQL store tests run against ${url.replace(/\/\/[^@]*@/, '//…@')}`);
  await dropTestSchemas(url);
  return () => dropTestSchemas(url);
}
