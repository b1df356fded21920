import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import { sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import type { Database } from '../../store/schema.ts';

// Operator sessions live in the store. The browser holds a random 256-bit value in an HttpOnly
// cookie; the store holds only its SHA-256, so a copy of the database signs nobody in. Idle expiry
// 30 minutes (pushed back on activity once less than 5 minutes are left), absolute expiry 12 hours.

/** `__Host-`: Secure, Path=/ and no Domain, so no other host or path can set or shadow it. */
export const SESSION_COOKIE = '__Host-dh_admin';
/** Between the password and the code (five minutes). */
export const PENDING_COOKIE = '__Host-dh_admin_pending';

export const cookieOptions = (maxAgeMs: number) =>
  ({ path: '/', httpOnly: true, secure: true, sameSite: 'strict', maxAge: Math.ceil(maxAgeMs / 1000) }) as const;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

const newToken = (): { token: string; hash: string } => {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
};

const iso = (ms: number) => new Date(ms).toISOString();

export interface LoadedSession {
  id: string;
  operatorId: string;
  email: string;
  freshProofAt: Date | null;
  role: OperatorRole;
}

export async function createSession(
  db: Kysely<Database>,
  input: { operatorId: string; browser: string; now: Date; freshProof: boolean },
): Promise<{ token: string; id: string }> {
  const { token, hash } = newToken();
  const id = randomUUID();
  const now = input.now.getTime();
  await db
    .insertInto('operator_sessions')
    .values({
      id,
      token_hash: hash,
      operator_id: input.operatorId,
      browser: input.browser.slice(0, 100),
      created_at: iso(now),
      last_seen_at: iso(now),
      idle_expires_at: iso(now + sessionTimes.idleMs),
      absolute_expires_at: iso(now + sessionTimes.absoluteMs),
      fresh_proof_at: input.freshProof ? iso(now) : null,
    })
    .execute();
  return { token, id };
}

// "Last seen" is written at most once a minute per session: a request is not a write.
const LAST_SEEN_GRAIN_MS = 60_000;

/**
 * The session a cookie names, if it is live; renews its idle expiry when little is left, unless
 * the request is background traffic (`renew: false`: a console view polling on its own, which is
 * not the operator at work and neither renews the session nor counts as "last seen"). An expired
 * session is deleted on sight.
 */
export async function loadSession(
  db: Kysely<Database>,
  token: string,
  now: Date,
  opts: { renew?: boolean } = {},
): Promise<LoadedSession | null> {
  const row = await db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .select([
      's.id',
      's.operator_id',
      's.idle_expires_at',
      's.absolute_expires_at',
      's.last_seen_at',
      's.fresh_proof_at',
      'o.email',
      'o.role',
    ])
    .where('s.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row) return null;
  const t = now.getTime();
  const idle = Date.parse(row.idle_expires_at);
  const absolute = Date.parse(row.absolute_expires_at);
  if (t >= idle || t >= absolute) {
    await db.deleteFrom('operator_sessions').where('id', '=', row.id).execute();
    return null;
  }
  const active = opts.renew !== false;
  const renew = active && idle - t < sessionTimes.renewWithinMs;
  if (renew || (active && t - Date.parse(row.last_seen_at) >= LAST_SEEN_GRAIN_MS)) {
    await db
      .updateTable('operator_sessions')
      .set({
        last_seen_at: iso(t),
        ...(renew ? { idle_expires_at: iso(Math.min(t + sessionTimes.idleMs, absolute)) } : {}),
      })
      .where('id', '=', row.id)
      .execute();
  }
  return {
    id: row.id,
    operatorId: row.operator_id,
    email: row.email,
    freshProofAt: row.fresh_proof_at ? new Date(row.fresh_proof_at) : null,
    role: row.role,
  };
}

export async function setFreshProof(db: Kysely<Database>, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ fresh_proof_at: now.toISOString() })
    .where('id', '=', sessionId)
    .execute();
}

/** Ends one of the operator's sessions by its public id; 0 when it was not theirs or is gone. */
export async function endSession(db: Kysely<Database>, operatorId: string, id: string): Promise<number> {
  const r = await db
    .deleteFrom('operator_sessions')
    .where('operator_id', '=', operatorId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function endAllSessions(db: Kysely<Database>, operatorId: string): Promise<number> {
  const r = await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Ends the session a cookie names (sign-out, or a new sign-in in the same browser). */
export async function endSessionByToken(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('token_hash', '=', tokenHash(token)).execute();
}

export async function listSessions(db: Kysely<Database>, operatorId: string, now: Date) {
  const at = now.toISOString();
  return db
    .selectFrom('operator_sessions')
    .select(['id', 'browser', 'created_at', 'last_seen_at'])
    .where('operator_id', '=', operatorId)
    .where('idle_expires_at', '>', at)
    .where('absolute_expires_at', '>', at)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

export async function createChallenge(db: Kysely<Database>, operatorId: string, now: Date): Promise<string> {
  const { token, hash } = newToken();
  await db
    .insertInto('operator_challenges')
    .values({
      token_hash: hash,
      operator_id: operatorId,
      created_at: now.toISOString(),
      expires_at: iso(now.getTime() + sessionTimes.pendingMs),
    })
    .execute();
  return token;
}

/**
 * A pending sign-in has this many second-factor answers checked, whatever the factor; when all
 * were wrong it is spent, and only the password step again starts a new one. So each correct
 * password buys at most five guesses at a 6-digit code, from any number of networks.
 */
export const SECOND_FACTOR_TRIES = 5;

/** The operator a pending sign-in is for, while it is live; `spent` once its tries are used up. */
export async function findChallenge(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<{
  operatorId: string;
  email: string;
  sealedTotpSecret: string;
  role: OperatorRole;
  spent: boolean;
} | null> {
  const row = await db
    .selectFrom('operator_challenges as c')
    .innerJoin('operators as o', 'o.id', 'c.operator_id')
    .select(['c.operator_id', 'c.expires_at', 'c.tries', 'o.email', 'o.totp_secret', 'o.role'])
    .where('c.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row || Date.parse(row.expires_at) <= now.getTime()) return null;
  return {
    operatorId: row.operator_id,
    email: row.email,
    sealedTotpSecret: row.totp_secret,
    role: row.role,
    spent: Number(row.tries) >= SECOND_FACTOR_TRIES,
  };
}

/**
 * Takes one of a pending sign-in's tries before its answer is checked: the try's number (1 to
 * SECOND_FACTOR_TRIES), or null when none is left. One conditional UPDATE, so answers sent at
 * once (two instances, many connections) can never have more than five checked between them.
 * A spent row stays until it expires (purgeExpired), so a replayed cookie is told why.
 */
export async function claimChallengeTry(db: Kysely<Database>, token: string): Promise<number | null> {
  const row = await db
    .updateTable('operator_challenges')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('token_hash', '=', tokenHash(token))
    .where('tries', '<', SECOND_FACTOR_TRIES)
    .returning('tries')
    .executeTakeFirst();
  return row ? Number(row.tries) : null;
}

export async function endChallenge(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('operator_challenges').where('token_hash', '=', tokenHash(token)).execute();
}

/** Deletes expired sessions and pending sign-ins (a background job; several instances may run it). */
export async function purgeExpired(db: Kysely<Database>, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.deleteFrom('operator_challenges').where('expires_at', '<=', at).execute();
  await db
    .deleteFrom('operator_sessions')
    .where((eb) => eb.or([eb('idle_expires_at', '<=', at), eb('absolute_expires_at', '<=', at)]))
    .execute();
}
