import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

// Policy and content refusals (a receiver's filter answering 5.7.x) become their own kind of bounce
// event, and repeated ones their own suppression reason: neither CHECK of migration 0015 allows
// them. PostgreSQL swaps the constraints; SQLite cannot alter a CHECK, so it copies each table
// into one declared with the new CHECK (https://www.sqlite.org/lang_altertable.html#otheralter)
// and makes its indexes again. docs/decisions/0035-bounces-complaints-and-suppression.md

const KINDS = `('hard', 'soft', 'complaint', 'policy')`;
const REASONS = `('hard-bounce', 'complaint', 'soft-bounce-limit', 'manual', 'policy-refusals')`;
const OLD_KINDS = `('hard', 'soft', 'complaint')`;
const OLD_REASONS = `('hard-bounce', 'complaint', 'soft-bounce-limit', 'manual')`;

async function sqliteRebuild(db: Kysely<unknown>, kinds: string, reasons: string): Promise<void> {
  await sql
    .raw(
      `create table "bounce_events_next" (
        "source" text not null, "event_id" text not null,
        "kind" text not null check (kind in ${kinds}),
        "key_id" text not null, "address_hash" text not null, "outbox_id" text, "created_at" text not null,
        constraint "bounce_events_pk" primary key ("source", "event_id"))`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into "bounce_events_next" ("source", "event_id", "kind", "key_id", "address_hash", "outbox_id", "created_at")
       select "source", "event_id", "kind", "key_id", "address_hash", "outbox_id", "created_at" from "bounce_events"`,
    )
    .execute(db);
  await sql.raw(`drop table "bounce_events"`).execute(db);
  await sql.raw(`alter table "bounce_events_next" rename to "bounce_events"`).execute(db);
  await db.schema
    .createIndex('bounce_events_address')
    .on('bounce_events')
    .columns(['address_hash', 'kind', 'created_at'])
    .execute();
  await db.schema.createIndex('bounce_events_outbox').on('bounce_events').columns(['outbox_id', 'kind']).execute();

  await sql
    .raw(
      `create table "suppressions_next" (
        "id" text primary key, "key_id" text not null, "address_hash" text not null,
        "subscriber_id" text references "subscribers" ("id") on delete set null,
        "reason" text not null check (reason in ${reasons}),
        "source" text not null, "detail" text, "created_at" text not null, "lifted_at" text, "lifted_by" text)`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into "suppressions_next" ("id", "key_id", "address_hash", "subscriber_id", "reason", "source", "detail", "created_at", "lifted_at", "lifted_by")
       select "id", "key_id", "address_hash", "subscriber_id", "reason", "source", "detail", "created_at", "lifted_at", "lifted_by" from "suppressions"`,
    )
    .execute(db);
  await sql.raw(`drop table "suppressions"`).execute(db);
  await sql.raw(`alter table "suppressions_next" rename to "suppressions"`).execute(db);
  await db.schema
    .createIndex('suppressions_standing')
    .on('suppressions')
    .columns(['key_id', 'address_hash'])
    .unique()
    .where(sql.ref('lifted_at'), 'is', null)
    .execute();
  await db.schema.createIndex('suppressions_subscriber').on('suppressions').column('subscriber_id').execute();
}

async function postgresSwap(db: Kysely<unknown>, kinds: string, reasons: string): Promise<void> {
  // Migration 0015 declared them on the columns: PostgreSQL named them <table>_<column>_check.
  await sql.raw(`alter table bounce_events drop constraint if exists bounce_events_kind_check`).execute(db);
  await sql
    .raw(`alter table bounce_events add constraint bounce_events_kind_check check (kind in ${kinds})`)
    .execute(db);
  await sql.raw(`alter table suppressions drop constraint if exists suppressions_reason_check`).execute(db);
  await sql
    .raw(`alter table suppressions add constraint suppressions_reason_check check (reason in ${reasons})`)
    .execute(db);
}

export const policyRefusalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteRebuild(db, KINDS, REASONS);
    else await postgresSwap(db, KINDS, REASONS);
  },
  async down(db: Kysely<unknown>) {
    // Going back drops what the old CHECKs cannot hold: policy events, and suppressions for them.
    await sql.raw(`delete from bounce_events where kind = 'policy'`).execute(db);
    await sql.raw(`delete from suppressions where reason = 'policy-refusals'`).execute(db);
    if (db.getExecutor().adapter instanceof SqliteAdapter) await sqliteRebuild(db, OLD_KINDS, OLD_REASONS);
    else await postgresSwap(db, OLD_KINDS, OLD_REASONS);
  },
};
