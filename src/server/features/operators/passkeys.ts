import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import type {
  AuthenticationOptions,
  AuthenticationResponse,
  PasskeyEntry,
  RegistrationOptions,
  RegistrationResponse,
} from '../../../shared/admin/passkey-schema.ts';
import { sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import type { Database, OperatorPasskeysTable } from '../../store/schema.ts';

// Operators' passkeys (WebAuthn) and their ceremonies (docs/decisions/0030-passkeys.md). The
// library (@simplewebauthn/server) builds the options and checks every answer: CBOR, COSE,
// signatures, origin, RP ID, user verification and the signature counter. This module keeps the
// credentials and the challenges in the store, so a ceremony begun on one instance can end on
// another, and a challenge is taken by exactly one answer.

/** Where passkeys are bound: PUBLIC_URL's host (RP ID) and origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/**
 * The relying party for the console at `publicUrl`, or null where browsers refuse WebAuthn: an
 * IP address is not a valid RP ID (https://www.w3.org/TR/webauthn-3/#rp-id), only a domain is.
 */
export function relyingPartyFor(publicUrl: string, siteName: string): RelyingParty | null {
  const url = new URL(publicUrl);
  if (isIP(url.hostname.replace(/^\[|\]$/g, ''))) return null;
  return { id: url.hostname, name: `${siteName} console`, origin: url.origin };
}

export const noPasskeysHereMessage =
  'Passkeys need the console at a domain name (like console.example.com or localhost), not an IP address: set PUBLIC_URL to it.';

/**
 * User verification is required, not merely preferred: a passkey stands in for the authenticator
 * code at sign-in and as fresh proof, so it must show that the person is there and is the
 * device's owner (PIN, fingerprint, face), not only that someone touched a key. See the decision.
 */
const USER_VERIFICATION = 'required' as const;
const CEREMONY_MS = sessionTimes.pendingMs;

type Purpose = 'register' | 'sign-in' | 'fresh-proof';
/** A challenge belongs to a session (adding a passkey, fresh proof) or to a pending sign-in. */
export type CeremonyBinding = { sessionId: string } | { pendingHash: string };

// ── The store ────────────────────────────────────────────────────────────────────────────────

const entry = (
  row: Pick<OperatorPasskeysTable, 'id' | 'name' | 'device_type' | 'created_at' | 'last_used_at'>,
): PasskeyEntry => ({
  id: row.id,
  name: row.name,
  synced: row.device_type === 'multiDevice',
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

const transportsOf = (json: string): string[] => {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
};

export async function listPasskeys(db: Kysely<Database>, operatorId: string): Promise<PasskeyEntry[]> {
  const rows = await db
    .selectFrom('operator_passkeys')
    .select(['id', 'name', 'device_type', 'created_at', 'last_used_at'])
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(entry);
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
    return { entry: entry({ ...row, name }), was: row.name };
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
async function issueChallenge(
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
async function takeChallenge(
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

// ── Refusals in words ────────────────────────────────────────────────────────────────────────

/** Why an answer was refused: a sentence for the operator, and a short note for the audit log. */
export interface PasskeyRefusal {
  message: string;
  detail: string;
}

/** The library throws plain Errors; their messages are matched to say what went wrong in words. */
function refusalFor(error: unknown, rp: RelyingParty): PasskeyRefusal {
  const text = error instanceof Error ? error.message : String(error);
  const say = (message: string, detail: string): PasskeyRefusal => ({ message, detail });
  if (/challenge/i.test(text)) {
    return say(
      'This passkey request has expired or was answered already. Please start again.',
      'passkey refused: unknown, expired or used challenge',
    );
  }
  if (/top origin|origin/i.test(text)) {
    return say(
      `The passkey answered for another site, not ${rp.origin}. Please use the console at its own address.`,
      'passkey refused: wrong origin',
    );
  }
  if (/RP ID/i.test(text)) {
    return say(`That passkey belongs to another site, not ${rp.id}.`, 'passkey refused: wrong RP ID');
  }
  if (/counter/i.test(text)) {
    return say(
      'That passkey’s use count went backwards, which happens when a key has been copied. It was not accepted; please remove it and add a new one.',
      'passkey refused: signature counter went backwards',
    );
  }
  if (/verif(y|ied|ication)/i.test(text) && /user/i.test(text)) {
    return say(
      'Your passkey did not confirm it was you (PIN, fingerprint or face). Please try again and confirm on the device.',
      'passkey refused: user not verified',
    );
  }
  if (/present/i.test(text)) {
    return say(
      'Your passkey did not confirm someone was there. Please try again and touch or unlock the device.',
      'passkey refused: user not present',
    );
  }
  return say('The passkey’s answer could not be verified. Please try again.', 'passkey refused: answer did not verify');
}

// ── Adding a passkey ─────────────────────────────────────────────────────────────────────────

/** Options for navigator.credentials.create(), the operator's passkeys excluded. */
export async function registrationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  operator: { id: string; email: string; sessionId: string },
  now: Date,
): Promise<RegistrationOptions> {
  const existing = await db
    .selectFrom('operator_passkeys')
    .select(['credential_id', 'transports'])
    .where('operator_id', '=', operator.id)
    .execute();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: operator.email,
    // The operator's random id: the same account on an authenticator for every passkey of theirs
    // (a second one replaces the first there rather than piling up), and no address in it.
    userID: new TextEncoder().encode(operator.id),
    // No attestation: the console trusts any authenticator that verifies its user, and "none"
    // asks browsers for no device details.
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: USER_VERIFICATION },
  });
  await issueChallenge(db, {
    challenge: options.challenge,
    purpose: 'register',
    operatorId: operator.id,
    binding: { sessionId: operator.sessionId },
    now,
  });
  return options;
}

/** Checks the browser's answer and keeps the new passkey; a refusal in words otherwise. */
export async function addPasskey(
  db: Kysely<Database>,
  rp: RelyingParty,
  operator: { id: string; sessionId: string },
  input: { name: string; response: RegistrationResponse },
  now: Date,
): Promise<{ ok: true; passkey: PasskeyEntry } | { ok: false; refusal: PasskeyRefusal }> {
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) =>
        takeChallenge(db, challenge, {
          purpose: 'register',
          operatorId: operator.id,
          binding: { sessionId: operator.sessionId },
          now,
        }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    return { ok: false, refusal: refusalFor(error, rp) };
  }
  if (!verified.verified) return { ok: false, refusal: refusalFor(null, rp) };
  const { credential, credentialDeviceType } = verified.registrationInfo;
  const taken = await db
    .selectFrom('operator_passkeys')
    .select('operator_id')
    .where('credential_id', '=', credential.id)
    .executeTakeFirst();
  if (taken) {
    return {
      ok: false,
      refusal: {
        message: 'That passkey is added already. Each device or password manager needs adding only once.',
        detail: 'passkey refused: added already',
      },
    };
  }
  const row = {
    id: randomUUID(),
    operator_id: operator.id,
    credential_id: credential.id,
    public_key: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
    device_type: credentialDeviceType,
    name: input.name,
    created_at: now.toISOString(),
    last_used_at: null,
  } satisfies OperatorPasskeysTable;
  await db.insertInto('operator_passkeys').values(row).execute();
  return { ok: true, passkey: entry(row) };
}

// ── Using a passkey (the second factor at sign-in, and fresh proof) ──────────────────────────

/** Options for navigator.credentials.get() limited to the operator's passkeys; null when they have none. */
export async function authenticationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  input: { operatorId: string; purpose: 'sign-in' | 'fresh-proof'; binding: CeremonyBinding },
  now: Date,
): Promise<AuthenticationOptions | null> {
  const mine = await db
    .selectFrom('operator_passkeys')
    .select(['credential_id', 'transports'])
    .where('operator_id', '=', input.operatorId)
    .execute();
  if (mine.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: mine.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    userVerification: USER_VERIFICATION,
  });
  await issueChallenge(db, {
    challenge: options.challenge,
    purpose: input.purpose,
    operatorId: input.operatorId,
    binding: input.binding,
    now,
  });
  return options;
}

export type PasskeyUse = { ok: true; name: string } | { ok: false; refusal: PasskeyRefusal };

/**
 * Checks an assertion from one of the operator's passkeys against a challenge issued for this
 * purpose and binding, and moves its counter on. A passkey that was removed, or is another
 * operator's, is refused like a wrong code.
 */
export async function verifyPasskeyUse(
  db: Kysely<Database>,
  rp: RelyingParty | null,
  input: {
    operatorId: string;
    purpose: 'sign-in' | 'fresh-proof';
    binding: CeremonyBinding;
    response: AuthenticationResponse;
  },
  now: Date,
): Promise<PasskeyUse> {
  if (!rp)
    return {
      ok: false,
      refusal: { message: noPasskeysHereMessage, detail: 'passkey refused: PUBLIC_URL is an IP address' },
    };
  const row = await db
    .selectFrom('operator_passkeys')
    .selectAll()
    .where('operator_id', '=', input.operatorId)
    .where('credential_id', '=', input.response.id)
    .executeTakeFirst();
  if (!row) {
    return {
      ok: false,
      refusal: {
        message:
          'That passkey is not one of yours here (it may have been removed). Please use another, or a code from your authenticator app.',
        detail: 'passkey refused: not registered',
      },
    };
  }
  const counter = Number(row.counter);
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: (challenge) =>
        takeChallenge(db, challenge, {
          purpose: input.purpose,
          operatorId: input.operatorId,
          binding: input.binding,
          now,
        }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: row.credential_id,
        publicKey: isoBase64URL.toBuffer(row.public_key),
        counter,
        transports: transportsOf(row.transports),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    return { ok: false, refusal: refusalFor(error, rp) };
  }
  if (!verified.verified) return { ok: false, refusal: refusalFor(null, rp) };
  // Conditional on the counter read above: of two answers racing on one key (a copied key), one wins.
  const moved = await db
    .updateTable('operator_passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, last_used_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('counter', '=', counter)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return { ok: false, refusal: refusalFor(new Error('counter'), rp) };
  return { ok: true, name: row.name };
}
