import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

// Invites a farm cannot fake (docs/decisions/0063):
// - each attribution gains `mailbox_key`, a keyed hash of the mailbox the invited address reaches
//   (+tags, case and Gmail's dots taken off), so one mailbox counts once among all of a
//   referrer's invitees without storing a second spelling of anyone's address;
// - a new refusal, 'one_domain': too many of a referrer's counted invitees at one domain that is
//   not a large public mail provider (a catch-all farm);
// - referral_network_days: invites counted per client network per UTC day, taken in one
//   conditional upsert, so confirmations sent together cannot all read "below the cap".
// PostgreSQL swaps the status CHECK; SQLite cannot alter a CHECK, so it copies the table into one
// declared with the new CHECK (https://www.sqlite.org/lang_altertable.html#otheralter).

const STATUSES = `('pending', 'counted', 'same_network', 'same_mailbox', 'disposable', 'capped', 'one_domain')`;
const OLD_STATUSES = `('pending', 'counted', 'same_network', 'same_mailbox', 'disposable', 'capped')`;
const COLUMNS = `"invited_id", "referrer_id", "network_key", "created_at", "status", "decided_at", "invited_domain"`;

async function sqliteRebuild(db: Kysely<unknown>, statuses: string, withMailboxKey: boolean): Promise<void> {
  await sql
    .raw(
      `create table "referral_attributions_next" (
        "invited_id" text primary key references "subscribers" ("id") on delete cascade,
        "referrer_id" text not null references "subscribers" ("id") on delete cascade,
        "network_key" text, "created_at" text not null,
        "status" text not null check (status in ${statuses}),
        "decided_at" text, "invited_domain" text${withMailboxKey ? ', "mailbox_key" text' : ''})`,
    )
    .execute(db);
  await sql
    .raw(`insert into "referral_attributions_next" (${COLUMNS}) select ${COLUMNS} from "referral_attributions"`)
    .execute(db);
  await sql.raw(`drop table "referral_attributions"`).execute(db);
  await sql.raw(`alter table "referral_attributions_next" rename to "referral_attributions"`).execute(db);
  await createIndexes(db, withMailboxKey);
}

async function createIndexes(db: Kysely<unknown>, withMailboxKey: boolean): Promise<void> {
  await db.schema
    .createIndex('referral_attributions_referrer')
    .ifNotExists()
    .on('referral_attributions')
    .columns(['referrer_id', 'status', 'decided_at'])
    .execute();
  await db.schema
    .createIndex('referral_attributions_network')
    .ifNotExists()
    .on('referral_attributions')
    .columns(['network_key', 'status', 'decided_at'])
    .execute();
  // The one-mailbox rule looks up (referrer, mailbox) among the referrer's invitees.
  if (withMailboxKey)
    await db.schema
      .createIndex('referral_attributions_mailbox')
      .ifNotExists()
      .on('referral_attributions')
      .columns(['referrer_id', 'mailbox_key'])
      .execute();
}

async function postgresSwap(db: Kysely<unknown>, statuses: string): Promise<void> {
  // Migration 0028 declared it on the column: PostgreSQL named it <table>_<column>_check.
  await sql
    .raw(`alter table referral_attributions drop constraint if exists referral_attributions_status_check`)
    .execute(db);
  await sql
    .raw(
      `alter table referral_attributions add constraint referral_attributions_status_check check (status in ${statuses})`,
    )
    .execute(db);
}

export const referralLimitsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteRebuild(db, STATUSES, true);
    else {
      await postgresSwap(db, STATUSES);
      await db.schema.alterTable('referral_attributions').addColumn('mailbox_key', 'text').execute();
      await createIndexes(db, true);
    }
    // Slots, not people: a network's keyed hash, a day and how many invites counted from it. It is
    // not lowered when a counted person is erased (a slot used today stays used today); yesterday's
    // rows are deleted as the next day's invites are decided.
    await db.schema
      .createTable('referral_network_days')
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('network_key', 'text', (c) => c.notNull())
      .addColumn('counted', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('referral_network_days_pk', ['day', 'network_key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('referral_network_days').execute();
    await sql.raw(`update referral_attributions set status = 'capped' where status = 'one_domain'`).execute(db);
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteRebuild(db, OLD_STATUSES, false);
    else {
      await db.schema.dropIndex('referral_attributions_mailbox').execute();
      await db.schema.alterTable('referral_attributions').dropColumn('mailbox_key').execute();
      await postgresSwap(db, OLD_STATUSES);
    }
  },
};
