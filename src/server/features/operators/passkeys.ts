import { isIP } from 'node:net';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Kysely } from 'kysely';
import type { AuthenticationOptions, AuthenticationResponse } from '../../../shared/admin/passkey-schema.ts';
import type { Database } from '../../store/schema.ts';
import { noPasskeysHereMessage, type PasskeyRefusal, refusalFor } from './passkey-refusals.ts';
import { type CeremonyBinding, credentialsOf, issueChallenge, takeChallenge, transportsOf } from './passkey-store.ts';

// Operators' passkeys (WebAuthn) and their ceremonies (docs/decisions/0030-passkeys.md). The
// library (@simplewebauthn/server) builds the options and checks every answer: CBOR, COSE,
// signatures, origin, RP ID, user verification and the signature counter. The credentials and the
// challenges are kept in the store, so a ceremony begun on one instance can end on another, and a
// challenge is taken by exactly one answer.
//
// Here: where passkeys are bound, and using one (the second factor at sign-in, and fresh proof).
// Adding one is passkey-registration.ts; the rows and challenges are passkey-store.ts; a refusal's
// words are passkey-refusals.ts.

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

/**
 * User verification is required, not merely preferred: a passkey stands in for the authenticator
 * code at sign-in and as fresh proof, so it must show that the person is there and is the
 * device's owner (PIN, fingerprint, face), not only that someone touched a key. See the decision.
 */
export const USER_VERIFICATION = 'required' as const;

/** Options for navigator.credentials.get() limited to the operator's passkeys; null when they have none. */
export async function authenticationOptions(
  db: Kysely<Database>,
  rp: RelyingParty,
  input: { operatorId: string; purpose: 'sign-in' | 'fresh-proof'; binding: CeremonyBinding },
  now: Date,
): Promise<AuthenticationOptions | null> {
  const mine = await credentialsOf(db, input.operatorId);
  if (mine.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: mine,
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
