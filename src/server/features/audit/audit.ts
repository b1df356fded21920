import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuditAction, AuditEntry, AuditPage, AuditQuery } from '../../../shared/admin/audit-schema.ts';
import type { AuditLogTable, Database } from '../../store/schema.ts';
import { appendToChain } from './audit-chain.ts';

// The audit log: who did what, and when. Append-only: this module only ever inserts and reads
// (and the table's triggers refuse UPDATE and DELETE; see migration 0004-operators), and each row
// is chained to the one before by its hash (audit-chain.ts, `npm run audit:verify`). It never
// holds a password, a code, an address typed into a failed sign-in, or a client's IP address.

export interface AuditRecord {
  action: AuditAction;
  /** What was acted on (an operator's address, a broadcast's id, …); never a subscriber's email. */
  subject?: string | null;
  /** A short note in words. */
  detail?: string | null;
}

/**
 * Appends one entry (the command line, and anything outside a request). Given a transaction, the
 * entry joins it (and commits or rolls back with what it records); given the db, it gets a
 * transaction of its own. Either way appends are serialised, so two instances never fork the chain.
 */
export async function recordAudit(
  db: Kysely<Database>,
  at: Date,
  actor: { email: string | null; via: AuditLogTable['via'] },
  record: AuditRecord,
): Promise<void> {
  const row = {
    id: randomUUID(),
    at: at.toISOString(),
    actor: actor.email,
    via: actor.via,
    action: record.action,
    subject: record.subject ?? null,
    detail: record.detail ?? null,
  };
  if (db.isTransaction) await appendToChain(db, row);
  else await db.transaction().execute((tx) => appendToChain(tx, row));
}

/**
 * Appends one entry for the request's signed-in operator (or "anonymous" before sign-in). For a
 * signed-in console route: `await audit(request, { action: 'subscribers.exported', detail })`.
 */
export function audit(request: FastifyRequest, record: AuditRecord): Promise<void> {
  const operator = request.operator;
  return recordAudit(
    request.server.store.db,
    request.server.clock(),
    operator ? { email: operator.email, via: 'console' } : { email: null, via: 'anonymous' },
    record,
  );
}

const PAGE = 50;

// Keyset paging, newest first: the cursor is the last entry's (at, id), so a page costs the same
// at the millionth entry as at the first.
const encodeCursor = (e: { at: string; id: string }) => Buffer.from(`${e.at}|${e.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: string; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return at && id ? { at, id } : null;
}

export async function readAudit(db: Kysely<Database>, query: AuditQuery): Promise<AuditPage> {
  const limit = query.limit ?? PAGE;
  let q = db.selectFrom('audit_log').selectAll();
  if (query.actor) q = q.where('actor', '=', query.actor);
  if (query.action) q = q.where('action', '=', query.action);
  if (query.from) q = q.where('at', '>=', `${query.from}T00:00:00.000Z`);
  // ISO times of that day all sort before the next day's first instant.
  if (query.to) q = q.where('at', '<', nextDay(query.to));
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (after) {
    q = q.where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
  }
  const rows = await q
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // The filter offers today's operators (a removed one can still be typed into the query).
  const actors = await db.selectFrom('operators').select('email').orderBy('email_key').limit(500).execute();
  return {
    entries: page.map(toEntry),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    actors: actors.map((a) => a.email),
  };
}

const nextDay = (day: string): string => {
  const d = new Date(`${day}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString();
};

const toEntry = (r: AuditLogTable): AuditEntry => ({
  id: r.id,
  at: r.at,
  actor: r.actor,
  via: r.via,
  action: r.action,
  subject: r.subject,
  detail: r.detail,
});
