import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { signupsMigration } from './migrations/0001-signups.ts';
import { analyticsMigration } from './migrations/0002-analytics.ts';
import { linkKeysMigration } from './migrations/0003-link-keys.ts';
import { operatorsMigration } from './migrations/0004-operators.ts';
import { consoleQueriesMigration } from './migrations/0005-console-queries.ts';
import { broadcastsMigration } from './migrations/0006-broadcasts.ts';
import { outboxClaimIndexMigration } from './migrations/0007-outbox-claim-index.ts';
import { operatorRolesMigration } from './migrations/0008-operator-roles.ts';
import { secretsAtRestMigration } from './migrations/0009-secrets-at-rest.ts';
import { erasureLedgerMigration } from './migrations/0010-erasure-ledger.ts';
import { auditChainMigration } from './migrations/0011-audit-chain.ts';
import { broadcastApprovalsMigration } from './migrations/0012-broadcast-approvals.ts';
import { personalDataReadsMigration } from './migrations/0013-personal-data-reads.ts';
import { passkeysMigration } from './migrations/0014-passkeys.ts';
import { suppressionsMigration } from './migrations/0015-suppressions.ts';
import { webhookNoncesMigration } from './migrations/0016-webhook-nonces.ts';
import { broadcastBrakeMigration } from './migrations/0017-broadcast-brake.ts';
import { subscriberLocaleMigration } from './migrations/0018-subscriber-locale.ts';
import { allowlistMigration } from './migrations/0019-allowlist.ts';
import { allowlistEmailLinkMigration } from './migrations/0020-allowlist-email-link.ts';
import { broadcastLocalesMigration } from './migrations/0021-broadcast-locales.ts';
import { outboxBroadcastClaimIndexMigration } from './migrations/0022-outbox-broadcast-claim-index.ts';
import { outboxBroadcastStatusPartialMigration } from './migrations/0023-outbox-broadcast-status-partial.ts';
import { walletLinkConfirmationMigration } from './migrations/0024-wallet-link-confirmation.ts';
import { signInTriesMigration } from './migrations/0025-sign-in-tries.ts';
import { broadcastEditorsMigration } from './migrations/0026-broadcast-editors.ts';
import { policyRefusalsMigration } from './migrations/0027-policy-refusals.ts';
import { referralsMigration } from './migrations/0028-referrals.ts';
import { operatorCodeTriesMigration } from './migrations/0029-operator-code-tries.ts';
import { referralLimitsMigration } from './migrations/0030-referral-limits.ts';
import { whoMayJoinMigration } from './migrations/0031-who-may-join.ts';
import type { Database } from './schema.ts';
import type { SecretBox } from './secret-box.ts';
import { errorText } from '../lib/log-safe.ts';

// Versioned, in order, never edited once shipped: add a new file for each change. Built per run:
// migration 0009 encrypts stored secrets with the data key it is given.
export const migrationsWith = (secrets: SecretBox | undefined): Record<string, Migration> => ({
  '0001-signups': signupsMigration,
  '0002-analytics': analyticsMigration,
  '0003-link-keys': linkKeysMigration,
  '0004-operators': operatorsMigration,
  '0005-console-queries': consoleQueriesMigration,
  '0006-broadcasts': broadcastsMigration,
  '0007-outbox-claim-index': outboxClaimIndexMigration,
  '0008-operator-roles': operatorRolesMigration,
  '0009-secrets-at-rest': secretsAtRestMigration(secrets),
  '0010-erasure-ledger': erasureLedgerMigration,
  '0011-audit-chain': auditChainMigration,
  '0012-broadcast-approvals': broadcastApprovalsMigration,
  '0013-personal-data-reads': personalDataReadsMigration,
  '0014-passkeys': passkeysMigration,
  '0015-suppressions': suppressionsMigration,
  '0016-webhook-nonces': webhookNoncesMigration,
  '0017-broadcast-brake': broadcastBrakeMigration,
  '0018-subscriber-locale': subscriberLocaleMigration,
  '0019-allowlist': allowlistMigration,
  '0020-allowlist-email-link': allowlistEmailLinkMigration,
  '0021-broadcast-locales': broadcastLocalesMigration,
  '0022-outbox-broadcast-claim-index': outboxBroadcastClaimIndexMigration,
  '0023-outbox-broadcast-status-partial': outboxBroadcastStatusPartialMigration,
  '0024-wallet-link-confirmation': walletLinkConfirmationMigration,
  '0025-sign-in-tries': signInTriesMigration,
  '0026-broadcast-editors': broadcastEditorsMigration,
  '0027-policy-refusals': policyRefusalsMigration,
  '0028-referrals': referralsMigration,
  '0029-operator-code-tries': operatorCodeTriesMigration,
  '0030-referral-limits': referralLimitsMigration,
  '0031-who-may-join': whoMayJoinMigration,
});

/**
 * Applies every pending migration; throws with the failing migration's name. `secrets` is the data
 * key ring (data-keys.ts): required, since a migration that stores a secret seals it, and one
 * that finds a secret in the clear (migration 0009) cannot run without it.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  opts: { pgSchema?: string; secrets: SecretBox },
): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsWith(opts.secrets) };
  // With a schema of our own, the migrator's bookkeeping must live there too: it looks tables up
  // across schemas and would otherwise find another schema's and skip creating its own.
  const migrate = (on: Kysely<Database>) =>
    new Migrator({
      db: on,
      provider,
      ...(opts.pgSchema ? { migrationTableSchema: opts.pgSchema } : {}),
    }).migrateToLatest();
  // PostgreSQL: Kysely takes an advisory lock and runs the migrations in a transaction. SQLite: its
  // lock is a no-op (one connection per process) and DDL runs outside any transaction, so two
  // processes starting on one file at once (a restart beside a running instance, two instances)
  // both saw a migration pending and the second failed on "index … already exists". One
  // BEGIN IMMEDIATE around the whole run makes the second wait (busy_timeout) and then find
  // nothing to do; a failing migration now also leaves no half-applied schema behind.
  const { error, results = [] } = db.getExecutor().adapter.supportsTransactionalDdl
    ? await migrate(db)
    : await db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const outcome = await migrate(conn);
          await sql.raw(outcome.error ? 'rollback' : 'commit').execute(conn);
          return outcome;
        } catch (thrown) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw thrown;
        }
      });
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const reason = errorText(error);
    throw new Error(
      failed
        ? `Database migration ${failed.migrationName} failed: ${reason}`
        : `Database migrations could not run: ${reason}`,
    );
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
