import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { auditRowHash, GENESIS_HASH, type ChainedFields } from '../../store/audit-hash.ts';
import type { AuditLogTable, Database } from '../../store/schema.ts';

// The audit log as a hash chain (docs/decisions/0032-tamper-evident-audit-and-deploy-defaults.md).
// Each row holds its sequence number, the previous row's hash and its own hash over all of that;
// a one-row head table holds the last sequence number and hash. A row deleted, edited or moved
// breaks a link, and rows cut from the end (or the whole log emptied) fall short of the head.
// The triggers stop the app from doing any of it; the chain shows whoever went around them.

const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Appends one row to the chain. Must run inside a transaction that holds the head: on PostgreSQL
 * the head row is read FOR UPDATE, so a second instance's append waits for this one to commit;
 * on SQLite every transaction we open is BEGIN IMMEDIATE (store/database.ts), which already holds
 * the one write lock.
 */
export async function appendToChain(
  tx: Kysely<Database>,
  row: Omit<ChainedFields, 'seq' | 'prev_hash'>,
): Promise<void> {
  if (!tx.isTransaction) throw new Error('appendToChain needs a transaction');
  let head = tx.selectFrom('audit_chain_head').select(['seq', 'hash']).where('id', '=', 1);
  if (isPostgres(tx)) head = head.forUpdate();
  const last = await head.executeTakeFirst();
  if (!last)
    throw new Error(
      'The audit log has no chain head (migration 0011-audit-chain missing, or the head row was deleted).',
    );
  const chained: ChainedFields = { ...row, seq: Number(last.seq) + 1, prev_hash: last.hash };
  const hash = auditRowHash(chained);
  await tx
    .insertInto('audit_log')
    .values({ ...chained, hash })
    .execute();
  await tx.updateTable('audit_chain_head').set({ seq: chained.seq, hash }).where('id', '=', 1).execute();
}

export interface ChainReport {
  ok: boolean;
  /** Rows checked. */
  rows: number;
  /** In words: the first broken link, or a missing guard; empty when ok. */
  problems: string[];
}

const BATCH = 1000;
/** How far from its place verify looks for a moved row's original seq. */
const REORDER_WINDOW = 2000;

/** The triggers that keep the log append-only, by engine; a missing or disabled one is reported. */
const AUDIT_TRIGGERS = {
  sqlite: [
    'audit_log_no_update',
    'audit_log_no_delete',
    'audit_log_chained',
    'audit_chain_head_no_delete',
    'audit_chain_head_forward',
  ],
  postgres: [
    'audit_log_append_only',
    'audit_log_no_truncate',
    'audit_chain_head_guard',
    'audit_chain_head_no_truncate',
  ],
} as const;

/** Names of guard triggers that are missing (SQLite, PostgreSQL) or disabled (PostgreSQL). */
export async function missingAuditTriggers(db: Kysely<Database>): Promise<string[]> {
  if (isPostgres(db)) {
    const rows = await sql<{ tgname: string; tgenabled: string }>`
      SELECT t.tgname, t.tgenabled FROM pg_trigger t
      WHERE t.tgrelid IN (to_regclass('audit_log'), to_regclass('audit_chain_head')) AND NOT t.tgisinternal`.execute(
      db,
    );
    // tgenabled 'D' is disabled; 'O' (origin), 'R' (replica) and 'A' (always) fire in some mode.
    const live = new Set(rows.rows.filter((r) => r.tgenabled !== 'D').map((r) => r.tgname));
    return AUDIT_TRIGGERS.postgres.filter((name) => !live.has(name));
  }
  const rows = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger'`.execute(db);
  const live = new Set(rows.rows.map((r) => r.name));
  return AUDIT_TRIGGERS.sqlite.filter((name) => !live.has(name));
}

const label = (r: Pick<AuditLogTable, 'seq' | 'id' | 'at' | 'action'>) =>
  `seq ${r.seq} (id ${r.id}, ${r.action} at ${r.at})`;

/**
 * Walks the chain in sequence order and names the first broken link: a missing row (a gap in the
 * sequence, or rows short of the head), an edited row (its content no longer matches its hash),
 * a reordered row (its hash matches only at another place in the sequence), or a row whose link
 * to the one before it does not hold (the one before was replaced). Also reports missing triggers.
 */
export async function verifyAuditChain(db: Kysely<Database>): Promise<ChainReport> {
  const problems: string[] = [];
  const missing = await missingAuditTriggers(db);
  if (missing.length)
    problems.push(
      `Guard trigger${missing.length > 1 ? 's' : ''} missing or disabled: ${missing.join(', ')}. Someone changed the schema below the app.`,
    );

  let prev: AuditLogTable | null = null;
  let rows = 0;
  let broken: string | null = null;
  outer: for (;;) {
    const after: number = prev ? prev.seq : 0;
    const batch: AuditLogTable[] = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BATCH)
      .execute();
    for (const raw of batch) {
      const r: AuditLogTable = { ...raw, seq: Number(raw.seq) };
      rows++;
      broken = checkRow(r, prev);
      if (broken) break outer;
      prev = r;
    }
    if (batch.length < BATCH) break;
  }
  // A row without chain fields has no place in the walk above (SQLite cannot make them NOT NULL;
  // a trigger refuses such a row, so one here was inserted with that trigger gone).
  const unchained = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('seq', 'is', null), eb('prev_hash', 'is', null), eb('hash', 'is', null)]))
    .executeTakeFirst();
  const loose = Number(unchained?.n ?? 0);
  if (loose > 0)
    problems.push(
      `Unchained: ${loose} row${loose > 1 ? 's have' : ' has'} no place in the chain (no seq or hash); inserted below the app.`,
    );
  if (broken) problems.push(broken);
  else {
    const head = await db.selectFrom('audit_chain_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
    const lastSeq = prev ? prev.seq : 0;
    if (!head) problems.push('The chain head row is missing: nothing shows how long the log should be.');
    else if (Number(head.seq) > lastSeq) {
      const from = lastSeq + 1;
      const to = Number(head.seq);
      problems.push(
        lastSeq === 0
          ? `Missing rows: the log is empty but the chain head says ${to} row${to > 1 ? 's were' : ' was'} written (seq 1 to ${to}): the log was emptied.`
          : `Missing rows: seq ${from}${to > from ? ` to ${to}` : ''} after ${label(prev as AuditLogTable)}: the chain head says the log ends at seq ${to}; the end was cut off.`,
      );
    } else if (Number(head.seq) < lastSeq || (prev && head.hash !== prev.hash)) {
      problems.push(
        `The chain head (seq ${head.seq}) does not match the last row ${prev ? label(prev) : ''}: the head was changed below the app.`,
      );
    }
  }
  return { ok: problems.length === 0, rows, problems };
}

function checkRow(r: AuditLogTable, prev: AuditLogTable | null): string | null {
  const expectedSeq = prev ? prev.seq + 1 : 1;
  if (auditRowHash(r) !== r.hash) {
    // Was it written at another place in the sequence? The seq is in the hash, so try the places
    // near this one (a few thousand SHA-256s, at the first break only).
    for (let d = 1; d <= REORDER_WINDOW; d++) {
      for (const seq of [r.seq + d, r.seq - d]) {
        if (seq > 0 && auditRowHash({ ...r, seq }) === r.hash) {
          return `Reordered: row ${label(r)} was written as seq ${seq}; its place in the sequence was changed.`;
        }
      }
    }
    return `Edited: row ${label(r)} no longer matches its hash; its content was changed after it was written.`;
  }
  if (r.seq !== expectedSeq) {
    const gap = r.seq - expectedSeq;
    return `Missing row${gap > 1 ? 's' : ''}: seq ${expectedSeq}${gap > 1 ? ` to ${r.seq - 1}` : ''} ${gap > 1 ? 'are' : 'is'} gone (deleted) before row ${label(r)}.`;
  }
  const expectedPrev = prev ? prev.hash : GENESIS_HASH;
  if (r.prev_hash !== expectedPrev) {
    return prev
      ? `Broken link: row ${label(r)} does not follow row ${label(prev)}; that row was replaced or rewritten with a new hash.`
      : `Broken link: row ${label(r)} is the first row but does not start the chain; earlier rows were removed.`;
  }
  return null;
}
