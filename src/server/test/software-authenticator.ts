// A passkey for the server tests: a P-256 key made with node:crypto, answering WebAuthn ceremonies
// the way a browser and an authenticator would (attestation "none"), so the routes are tested with
// real responses that @simplewebauthn/server checks in full. The CBOR and COSE encoding are the
// library's own helpers; only the byte layout of authenticatorData is written out here
// (https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data).
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { cose, isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponse, RegistrationResponse } from '../../shared/admin/passkey-schema.ts';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

/** What a test can make the browser or authenticator get wrong. */
export interface Tampering {
  /** The page the browser says the ceremony ran on (clientDataJSON.origin). */
  origin?: string;
  /** The RP ID the authenticator scoped the credential to (its hash opens authenticatorData). */
  rpId?: string;
  /** The challenge the browser says it was given. */
  challenge?: string;
  /** false: the authenticator reports no PIN, fingerprint or face check. */
  userVerified?: boolean;
  /** The signature counter the authenticator reports (default: one more than last time). */
  counter?: number;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;

  constructor(private readonly site: { origin: string; rpId: string }) {}

  get id(): string {
    return b64(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    if (!jwk.x || !jwk.y) throw new Error('P-256 key without coordinates');
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [cose.COSEKEYS.kty, cose.COSEKTY.EC2],
        [cose.COSEKEYS.alg, cose.COSEALG.ES256],
        [cose.COSEKEYS.crv, cose.COSECRV.P256],
        [cose.COSEKEYS.x, isoBase64URL.toBuffer(jwk.x)],
        [cose.COSEKEYS.y, isoBase64URL.toBuffer(jwk.y)],
      ]),
    );
  }

  private authenticatorData(t: Tampering, attested: boolean): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(t.counter ?? this.counter);
    const flags =
      FLAG_USER_PRESENT |
      (t.userVerified === false ? 0 : FLAG_USER_VERIFIED) |
      (attested ? FLAG_ATTESTED_CREDENTIAL : 0);
    const parts: Uint8Array[] = [sha256(t.rpId ?? this.site.rpId), Buffer.from([flags]), counter];
    if (attested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16) /* AAGUID: none */, idLength, this.credentialId, this.cosePublicKey());
    }
    return Buffer.concat(parts);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, t: Tampering): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: t.challenge ?? challenge,
        origin: t.origin ?? this.site.origin,
        crossOrigin: false,
      }),
    );
  }

  /** navigator.credentials.create() answering `options` (as startRegistration() returns it). */
  register(options: { challenge: string }, t: Tampering = {}): RegistrationResponse {
    const authData = this.authenticatorData(t, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, Uint8Array | string | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge, t)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() answering `options` (as startAuthentication() returns it). */
  authenticate(options: { challenge: string }, t: Tampering = {}): AuthenticationResponse {
    if (t.counter === undefined) this.counter += 1;
    const authData = this.authenticatorData(t, false);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, t);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature) },
      clientExtensionResults: {},
    };
  }
}
