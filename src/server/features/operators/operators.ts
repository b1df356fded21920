import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normaliseEmail } from '../../../shared/signup-schema.ts';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import type { Database } from '../../store/schema.ts';
import { totpSecretContext, type SecretBox } from '../../store/secret-box.ts';
import { hashPassword } from './passwords.ts';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.ts';
import { newTotpSecret } from './totp.ts';

// Operators in the store: what the command line (scripts/operator.ts) and the sign-in routes share.
// Checking a new password against the rules is the caller's (passwordProblem in passwords.ts).

export interface Operator {
  id: string;
  email: string;
  passwordHash: string;
  /** As stored: encrypted (secret-box.ts). Read it with openTotpSecret. */
  sealedTotpSecret: string;
  lastStep: number | null;
  role: OperatorRole;
}

export interface NewFactors {
  totpSecret: string;
  recoveryCodes: string[];
}

export class OperatorError extends Error {}

/** One operator per address whatever its case. */
export const operatorKey = (email: string): string => normaliseEmail(email).toLowerCase();

export async function findOperator(db: Kysely<Database>, email: string): Promise<Operator | null> {
  const row = await db
    .selectFrom('operators')
    .selectAll()
    .where('email_key', '=', operatorKey(email))
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    sealedTotpSecret: row.totp_secret,
    lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    role: row.role,
  };
}

/** The operator's authenticator secret in the clear; a SecretBoxError (in words) when it cannot be opened. */
export const openTotpSecret = (secrets: SecretBox, operatorId: string, sealed: string): string =>
  secrets.open(sealed, totpSecretContext(operatorId));

async function storeRecoveryCodes(db: Kysely<Database>, operatorId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.deleteFrom('operator_recovery_codes').where('operator_id', '=', operatorId).execute();
  await db
    .insertInto('operator_recovery_codes')
    .values(codes.map((c) => ({ operator_id: operatorId, code_hash: recoveryCodeHash(c), used_at: null })))
    .execute();
  return codes;
}

/** Creates an operator with a new authenticator secret and ten recovery codes (shown once). */
export async function addOperator(
  db: Kysely<Database>,
  email: string,
  password: string,
  now: Date,
  role: OperatorRole,
  secrets: SecretBox,
): Promise<NewFactors> {
  const passwordHash = await hashPassword(password);
  const totpSecret = newTotpSecret();
  return db.transaction().execute(async (tx) => {
    if (await findOperator(tx, email))
      throw new OperatorError(`An operator with the address ${normaliseEmail(email)} exists already.`);
    const id = randomUUID();
    const at = now.toISOString();
    await tx
      .insertInto('operators')
      .values({
        id,
        email: normaliseEmail(email),
        email_key: operatorKey(email),
        password_hash: passwordHash,
        totp_secret: secrets.seal(totpSecret, totpSecretContext(id)),
        totp_last_step: null,
        created_at: at,
        updated_at: at,
        role,
      })
      .execute();
    return { totpSecret, recoveryCodes: await storeRecoveryCodes(tx, id) };
  });
}

export interface OperatorListing {
  email: string;
  role: OperatorRole;
  createdAt: string;
  activeSessions: number;
  recoveryCodesLeft: number;
}

export async function listOperators(db: Kysely<Database>, now: Date): Promise<OperatorListing[]> {
  const at = now.toISOString();
  const rows = await db
    .selectFrom('operators as o')
    .select((eb) => [
      'o.email',
      'o.role',
      'o.created_at',
      eb
        .selectFrom('operator_sessions as s')
        .select(eb.fn.countAll<string | number>().as('n'))
        .whereRef('s.operator_id', '=', 'o.id')
        .where('s.idle_expires_at', '>', at)
        .where('s.absolute_expires_at', '>', at)
        .as('sessions'),
      eb
        .selectFrom('operator_recovery_codes as r')
        .select(eb.fn.countAll<string | number>().as('n'))
        .whereRef('r.operator_id', '=', 'o.id')
        .where('r.used_at', 'is', null)
        .as('codes'),
    ])
    .orderBy('o.email_key')
    .execute();
  return rows.map((r) => ({
    email: r.email,
    role: r.role,
    createdAt: r.created_at,
    activeSessions: Number(r.sessions ?? 0),
    recoveryCodesLeft: Number(r.codes ?? 0),
  }));
}

async function requireOperator(db: Kysely<Database>, email: string): Promise<Operator> {
  const op = await findOperator(db, email);
  if (!op) throw new OperatorError(`There is no operator with the address ${normaliseEmail(email)}.`);
  return op;
}

/** Removes an operator; their sessions, codes and pending sign-ins go with them (cascade). */
export async function removeOperator(db: Kysely<Database>, email: string): Promise<void> {
  const op = await requireOperator(db, email);
  await db.deleteFrom('operators').where('id', '=', op.id).execute();
}

/** Every owner's address (whom the console tells of what concerns the team: code holds). */
export async function ownerAddresses(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('operators').select('email').where('role', '=', 'owner').execute();
  return rows.map((r) => r.email);
}

/** Whether any operator exists yet (the first one made is an owner). */
export async function hasOperators(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('operators').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Gives an operator another role; their sessions end, so the new role holds from their next
 * sign-in and a lowered one cannot linger in an open tab. Returns the role they had.
 */
export async function setRole(
  db: Kysely<Database>,
  email: string,
  role: OperatorRole,
  now: Date,
): Promise<OperatorRole> {
  const op = await requireOperator(db, email);
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('operators').set({ role, updated_at: now.toISOString() }).where('id', '=', op.id).execute();
    await tx.deleteFrom('operator_sessions').where('operator_id', '=', op.id).execute();
  });
  return op.role;
}

/** A new password; every session of the operator ends (whoever knew the old one is signed out). */
export async function changePassword(db: Kysely<Database>, email: string, password: string, now: Date): Promise<void> {
  const op = await requireOperator(db, email);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('operators')
      .set({ password_hash: passwordHash, updated_at: now.toISOString() })
      .where('id', '=', op.id)
      .execute();
    await tx.deleteFrom('operator_sessions').where('operator_id', '=', op.id).execute();
    await tx.deleteFrom('operator_challenges').where('operator_id', '=', op.id).execute();
  });
}

/** A new authenticator secret and new recovery codes (a lost phone); every passkey and session ends. */
export async function resetTwoFactor(
  db: Kysely<Database>,
  email: string,
  now: Date,
  secrets: SecretBox,
): Promise<NewFactors> {
  const op = await requireOperator(db, email);
  const totpSecret = newTotpSecret();
  return db.transaction().execute(async (tx) => {
    await tx
      .updateTable('operators')
      .set({
        totp_secret: secrets.seal(totpSecret, totpSecretContext(op.id)),
        totp_last_step: null,
        updated_at: now.toISOString(),
      })
      .where('id', '=', op.id)
      .execute();
    await tx.deleteFrom('operator_sessions').where('operator_id', '=', op.id).execute();
    await tx.deleteFrom('operator_challenges').where('operator_id', '=', op.id).execute();
    // Every second factor is replaced, passkeys too: a reset answers a lost or stolen device, and
    // a thief who once had fresh proof could have added a passkey of their own (decision 0030).
    await tx.deleteFrom('operator_passkeys').where('operator_id', '=', op.id).execute();
    return { totpSecret, recoveryCodes: await storeRecoveryCodes(tx, op.id) };
  });
}

/** Re-hash a password whose hash was made with older parameters (after a successful check). */
export async function replacePasswordHash(
  db: Kysely<Database>,
  operatorId: string,
  passwordHash: string,
): Promise<void> {
  await db.updateTable('operators').set({ password_hash: passwordHash }).where('id', '=', operatorId).execute();
}

/**
 * Marks a TOTP step as used, if it is later than the last one used. One conditional UPDATE, so
 * two instances (or two tabs) racing with the same code cannot both win.
 */
export async function claimTotpStep(db: Kysely<Database>, operatorId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('operators')
    .set({ totp_last_step: step })
    .where('id', '=', operatorId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses up a recovery code; false when it is not one of this operator's unused codes. */
export async function claimRecoveryCode(
  db: Kysely<Database>,
  operatorId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('operator_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('operator_id', '=', operatorId)
    .where('code_hash', '=', recoveryCodeHash(code))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Kysely<Database>, operatorId: string): Promise<number> {
  const row = await db
    .selectFrom('operator_recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('operator_id', '=', operatorId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
