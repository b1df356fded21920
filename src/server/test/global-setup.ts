import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { TEST_SCHEMA_PREFIX } from './test-store.ts';

// Runs once around the Vitest run. Says plainly when the PostgreSQL half of the store tests is
// skipped (so a green laptop run is not mistaken for a PostgreSQL-tested one), and drops throwaway
// test schemas: this run's own after it, and before it those of runs that are no longer alive
// (a crashed run's leftovers). Never another live run's: two checkouts may test against one
// server at once, and a DROP racing a migrator's catalogue lookup fails it.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Names this run's PostgreSQL schemas: `t_<pid of the Vitest process>_…`. */
    pgSchemaRun: string;
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function dropTestSchemas(url: string, which: (pid: number) => boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname ~ $1', [
      `^${TEST_SCHEMA_PREFIX}[0-9]+_[0-9a-f]{12}$`,
    ]);
    for (const { nspname } of rows) {
      const pid = Number(nspname.slice(TEST_SCHEMA_PREFIX.length).split('_')[0]);
      if (which(pid)) await client.query(`drop schema if exists ${nspname} cascade`);
    }
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide('pgSchemaRun', String(process.pid));
  const url = process.env.TEST_POSTGRES_URL;
  if (!url) {
    console.log(
      'PostgreSQL store tests are SKIPPED: TEST_POSTGRES_URL is not set (CI sets it; e.g. TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/test npm test).',
    );
    return undefined;
  }
  console.log(`PostgreSQL store tests run against ${url.replace(/\/\/[^@]*@/, '//…@')}`);
  await dropTestSchemas(url, (pid) => !alive(pid));
  return () => dropTestSchemas(url, (pid) => pid === process.pid);
}
