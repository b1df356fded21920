import { createHash } from 'node:crypto';
import type { AuditLogTable } from './schema.ts';

// The audit chain's hash, here in the store layer because migration 0011 backfills with it
// (src/server/features/audit/audit-chain.ts appends and verifies).

/** The previous hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

export type ChainedFields = Pick<
  AuditLogTable,
  'seq' | 'id' | 'at' | 'actor' | 'via' | 'action' | 'subject' | 'detail' | 'prev_hash'
>;

/**
 * SHA-256 over a JSON array of the fields in a fixed order: JSON.stringify of strings, numbers
 * and nulls has one spelling, and an array has no key order to disagree about. Never change this
 * encoding: every stored hash depends on it (a new one would need a new chain version).
 */
export function auditRowHash(r: ChainedFields): string {
  const canonical = JSON.stringify([
    'dh-audit-v1',
    r.seq,
    r.id,
    r.at,
    r.actor,
    r.via,
    r.action,
    r.subject,
    r.detail,
    r.prev_hash,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
