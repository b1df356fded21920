import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

// The operators' console reads (docs/decisions/0014-console-queries.md):
// - keyset paging over (created_at, id), with and without a status, on indexes that hold both;
// - search by substring of name or email: an FTS5 trigram index in SQLite, pg_trgm GIN in
//   PostgreSQL (when the extension can be had; without it search still works, by scanning);
// - sign-ups per day as a roll-up kept by a trigger, so erasing a person keeps the totals and the
//   audience report reads days, not subscribers;
// - raw visits by time, for "visitors in the last 30 minutes".

const isPostgres = (db: Kysely<unknown>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The expression the PostgreSQL trigram index covers; queries must repeat it exactly. */
export const PG_SEARCH_TEXT = sql`(lower(name) || E'\\n' || email_key)`;

/**
 * Makes pg_trgm available and returns the schema it lives in, or null when this role may not
 * install it (CREATE EXTENSION needs CREATE on the database; pg_trgm is a trusted extension, so no
 * superuser is needed). Installed into `public` once: every test schema shares it, and the
 * operator class is always named with its schema, so a search_path without `public` still finds it.
 */
async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  const find = async () =>
    (
      await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.nspname ?? null;
  const existing = await find();
  if (existing) return existing;
  const can = await sql<{ ok: boolean }>`select
      exists (select 1 from pg_available_extensions where name = 'pg_trgm')
      and has_database_privilege(current_database(), 'CREATE')
      and has_schema_privilege('public', 'CREATE') as ok`.execute(db);
  if (!can.rows[0]?.ok) return null;
  // A savepoint, because the migration runs in a transaction and two processes (test files,
  // instances starting together) may race to create it: the loser's error must not abort ours.
  await sql`savepoint dh_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint dh_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint dh_trgm`.execute(db);
  }
  return find();
}

export const consoleQueriesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = isPostgres(db);

    // Keyset paging seeks on (created_at, id) directly; these replace the narrower indexes, so a
    // sign-up maintains no more subscriber indexes than before.
    await db.schema.dropIndex('subscribers_created').execute();
    await db.schema.dropIndex('subscribers_status_created').execute();
    await db.schema.createIndex('subscribers_created_id').on('subscribers').columns(['created_at', 'id']).execute();
    await db.schema
      .createIndex('subscribers_status_created_id')
      .on('subscribers')
      .columns(['status', 'created_at', 'id'])
      .execute();

    await db.schema.createIndex('visits_at').on('visits').column('at').execute();

    // Sign-ups per UTC day, counted when a subscriber row is inserted and never decremented:
    // erasing a person removes them, not the fact that a sign-up happened that day.
    await db.schema
      .createTable('daily_signups')
      .addColumn('day', 'text', (c) => c.primaryKey())
      .addColumn('signups', 'integer', (c) => c.notNull())
      .execute();
    await sql`insert into daily_signups (day, signups)
      select substr(created_at, 1, 10), count(*) from subscribers group by substr(created_at, 1, 10)`.execute(db);

    if (pg) {
      // One statement-level trigger per INSERT statement (the sign-up batch inserts many rows in
      // one statement), so a batch costs one upsert per day it touches, not one per person. Days
      // in order, so two batches spanning midnight lock the same rows in the same order.
      await sql`create function dh_count_signups() returns trigger language plpgsql
        set search_path from current as $$
        begin
          insert into daily_signups (day, signups)
            select substr(created_at, 1, 10), count(*) from new_rows group by 1 order by 1
          on conflict (day) do update set signups = daily_signups.signups + excluded.signups;
          return null;
        end $$`.execute(db);
      await sql`create trigger subscribers_count_signups after insert on subscribers
        referencing new table as new_rows for each statement execute function dh_count_signups()`.execute(db);

      const trgm = await trigramSchema(db);
      if (trgm) {
        await sql`create index subscribers_search_trgm on subscribers
          using gin (${PG_SEARCH_TEXT} ${sql.id(trgm)}.gin_trgm_ops)`.execute(db);
      }
      return;
    }

    await sql`create trigger subscribers_count_signups after insert on subscribers begin
        insert into daily_signups (day, signups) values (substr(new.created_at, 1, 10), 1)
        on conflict (day) do update set signups = signups + 1;
      end`.execute(db);

    // An external-content FTS5 table: the index only, the text stays in subscribers. Its rowid is
    // the subscriber's rowid (stable: VACUUM keeps rowids of rowid tables; after any rebuild of
    // the table, run INSERT INTO subscribers_search(subscribers_search) VALUES('rebuild')).
    await sql`create virtual table subscribers_search using fts5(
        name, email_key, content = 'subscribers', content_rowid = 'rowid', tokenize = 'trigram')`.execute(db);
    await sql`create trigger subscribers_search_insert after insert on subscribers begin
        insert into subscribers_search (rowid, name, email_key) values (new.rowid, new.name, new.email_key);
      end`.execute(db);
    await sql`create trigger subscribers_search_delete after delete on subscribers begin
        insert into subscribers_search (subscribers_search, rowid, name, email_key)
          values ('delete', old.rowid, old.name, old.email_key);
      end`.execute(db);
    // A repeat sign-up rewrites the name even when it is the same: only a real change re-indexes.
    await sql`create trigger subscribers_search_update after update of name, email_key on subscribers
      when old.name is not new.name or old.email_key is not new.email_key begin
        insert into subscribers_search (subscribers_search, rowid, name, email_key)
          values ('delete', old.rowid, old.name, old.email_key);
        insert into subscribers_search (rowid, name, email_key) values (new.rowid, new.name, new.email_key);
      end`.execute(db);
    await sql`insert into subscribers_search (subscribers_search) values ('rebuild')`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`drop index if exists subscribers_search_trgm`.execute(db);
      await sql`drop trigger if exists subscribers_count_signups on subscribers`.execute(db);
      await sql`drop function if exists dh_count_signups()`.execute(db);
    } else {
      for (const t of [
        'subscribers_search_insert',
        'subscribers_search_delete',
        'subscribers_search_update',
        'subscribers_count_signups',
      ]) {
        await sql`drop trigger if exists ${sql.id(t)}`.execute(db);
      }
      await sql`drop table if exists subscribers_search`.execute(db);
    }
    await db.schema.dropTable('daily_signups').execute();
    await db.schema.dropIndex('visits_at').execute();
    await db.schema.dropIndex('subscribers_status_created_id').execute();
    await db.schema.dropIndex('subscribers_created_id').execute();
    await db.schema
      .createIndex('subscribers_status_created')
      .on('subscribers')
      .columns(['status', 'created_at'])
      .execute();
    await db.schema.createIndex('subscribers_created').on('subscribers').column('created_at').execute();
  },
};
