import type { Kysely } from 'kysely';
import type { PasskeyEntry } from '../../../shared/admin/passkey-schema.ts';
import { sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import type { Database, OperatorPasskeysTable } from '../../store/schema.ts';

// Passkeys and their ceremonies' challenges in the store (passkeys.ts says why the store): a
// ceremony begun on one instance can end on another, and a challenge is taken by exactly one
// answer.

const CEREMONY_MS = sessionTimes.pendingMs;

export type Purpose = 'register' | 'sign-in' | 'fresh-proof';
/** A challenge belongs to a session (adding a passkey, fresh proof) or to a pending sign-in. */
export type CeremonyBinding = { sessionId: string } | { pendingHash: string };

export const passkeyEntry = (
  row: Pick<OperatorPasskeysTable, 'id' | 'name' | 'device_type' | 'created_at' | 'last_used_at'>,
): PasskeyEntry => ({
  id: row.id,
  name: row.name,
  synced: row.device_type === 'multiDevice',
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export const transportsOf = (json: string): string[] => {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
};

/** The operator's credentials as WebAuthn names them: excluded when adding one, allowed when using one. */
export async function credentialsOf(
  db: Kysely<Database>,
  operatorId: string,
): Promise<{ id: string; transports: string[] }[]> {
  const rows = await db
    .selectFrom('operator_passkeys')
    .select(['credential_id', 'transports'])
    .where('operator_id', '=', operatorId)
    .execute();
  return rows.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) }));
}

export async function listPasskeys(db: Kysely<Database>, operatorId: string): Promise<PasskeyEntry[]> {
  const rows = await db
    .selectFrom('operator_passkeys')
    .select(['id', 'name', 'device_type', 'created_at', 'last_used_at'])
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(passkeyEntry);
}

export async function renamePasskey(
  db: Kysely<Database>,
  operatorId: string,
  id: string,
  name: string,
): Promise<{ entry: PasskeyEntry; was: string } | null> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('operator_passkeys')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    await tx.updateTable('operator_passkeys').set({ name }).where('id', '=', id).execute();
    return { entry: passkeyEntry({ ...row, name }), was: row.name };
  });
}

/** Removes one of the operator's passkeys; its name, or null when it was not theirs or is gone. */
export async function removePasskey(db: Kysely<Database>, operatorId: string, id: string): Promise<string | null> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('operator_passkeys')
      .select('name')
      .where('operator_id', '=', operatorId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    await tx.deleteFrom('operator_passkeys').where('id', '=', id).execute();
    return row.name;
  });
}

/** Starts a ceremony: stores the challenge the browser's answer must sign. */
export async function issueChallenge(
  db: Kysely<Database>,
  input: { challenge: string; purpose: Purpose; operatorId: string; binding: CeremonyBinding; now: Date },
): Promise<void> {
  await db
    .insertInto('operator_passkey_challenges')
    .values({
      challenge: input.challenge,
      purpose: input.purpose,
      operator_id: input.operatorId,
      session_id: 'sessionId' in input.binding ? input.binding.sessionId : null,
      pending_hash: 'pendingHash' in input.binding ? input.binding.pendingHash : null,
      created_at: input.now.toISOString(),
      expires_at: new Date(input.now.getTime() + CEREMONY_MS).toISOString(),
    })
    .execute();
}

/**
 * Takes the challenge an answer signed: true only when it was issued for this purpose, operator
 * and session (or pending sign-in), is live, and no other answer took it first. One DELETE, so
 * two instances checking one answer at once cannot both win.
 */
export async function takeChallenge(
  db: Kysely<Database>,
  challenge: string,
  want: { purpose: Purpose; operatorId: string; binding: CeremonyBinding; now: Date },
): Promise<boolean> {
  const { binding } = want;
  const r = await db
    .deleteFrom('operator_passkey_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', want.purpose)
    .where('operator_id', '=', want.operatorId)
    .where('expires_at', '>', want.now.toISOString())
    .where((eb) =>
      'sessionId' in binding ? eb('session_id', '=', binding.sessionId) : eb('pending_hash', '=', binding.pendingHash),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Deletes the challenges nobody answered (the console's purge job). */
export async function purgeExpiredPasskeyChallenges(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('operator_passkey_challenges').where('expires_at', '<=', now.toISOString()).execute();
}
