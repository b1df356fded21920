// Which server a browser test drives: the project's metadata (playwright.config.ts) names its
// database and outbox, so the seeding helpers and the outbox reader reach the same server the
// browser does: SQLite in the `chromium` project, PostgreSQL in `chromium-postgres`.
import { test } from '@playwright/test';
import { loadEnv } from '../src/server/env.ts';
import { openStore, type Store } from '../src/server/store/database.ts';
import { secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import type { SecretBox } from '../src/server/store/secret-box.ts';
import type { E2eTarget } from '../playwright.config.ts';

export function e2eTarget(): E2eTarget {
  const { databaseUrl, outboxDir } = test.info().project.metadata as Partial<E2eTarget>;
  if (!databaseUrl || !outboxDir)
    throw new Error(`Project ${test.info().project.name} names no database and outbox in its metadata`);
  return { databaseUrl, outboxDir };
}

/**
 * Runs `work` on the running server's own database (a second connection: SQLite in WAL mode and
 * PostgreSQL both take one), closed afterwards.
 */
export async function withServerStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(e2eTarget().databaseUrl);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The servers' data keys (playwright.config.ts makes one per run): what operators' secrets are sealed with. */
export const e2eSecrets = (): SecretBox => secretBoxFromEnv(loadEnv({ DATA_KEY: process.env.E2E_DATA_KEY }));
