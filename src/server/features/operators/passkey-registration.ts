import { randomUUID } from 'node:crypto';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import type { PasskeyEntry, RegistrationOptions, RegistrationResponse } from '../../../shared/admin/passkey-schema.ts';
import type { Database, OperatorPasskeysTable } from '../../store/schema.ts';
import { type PasskeyRefusal, refusalFor } from './passkey-refusals.ts';
import { credentialsOf, issueChallenge, passkeyEntry, takeChallenge } from './passkey-store.ts';
import { type RelyingParty, USER_VERIFICATION } from './passkeys.ts';

// Adding a passkey: the options for the browser, then its answer checked and the credential kept,
// in a session with fresh proof (passkey-routes.ts asks for it).

/** Options for navigator.credentials.create(), the operator's passkeys excluded. */
export async function registrationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  operator: { id: string; email: string; sessionId: string },
  now: Date,
): Promise<RegistrationOptions> {
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
    excludeCredentials: await credentialsOf(db, operator.id),
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
  return { ok: true, passkey: passkeyEntry(row) };
}
