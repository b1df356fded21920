import { z } from 'zod/mini';

// Passkeys (WebAuthn) for the console's operators: the messages between the console and the
// server (docs/decisions/0030-passkeys.md). The WebAuthn shapes follow the JSON forms that
// @simplewebauthn/server emits and @simplewebauthn/browser returns; the ceremony itself (CBOR,
// COSE, signatures) is theirs, never ours.

const passkeyLimits = { name: 60 } as const;

// What the browser hands back is checked for shape and size here; its meaning is checked by the
// library on the server. Generous caps: an attestation with a certificate chain runs to a few KB.
const base64url = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max, 'A passkey answer is larger than any authenticator sends.'),
      z.regex(/^[A-Za-z0-9_-]*$/, 'A passkey answer must be base64url.'),
    );

// Loose where the WebAuthn types are (type and transports are open strings there, for values a
// later browser may add).
const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.optional(z.array(z.string())),
});
const userVerificationSchema = z.enum(['required', 'preferred', 'discouraged']);
const hintSchema = z.enum(['hybrid', 'security-key', 'client-device']);

/** What the console hands to startRegistration() (generateRegistrationOptions' answer). */
export const registrationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.optional(z.string()) }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.optional(z.number()),
  excludeCredentials: z.optional(z.array(credentialDescriptorSchema)),
  authenticatorSelection: z.optional(
    z.object({
      authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
      requireResidentKey: z.optional(z.boolean()),
      residentKey: z.optional(z.enum(['discouraged', 'preferred', 'required'])),
      userVerification: z.optional(userVerificationSchema),
    }),
  ),
  hints: z.optional(z.array(hintSchema)),
  attestation: z.optional(z.enum(['direct', 'enterprise', 'indirect', 'none'])),
  extensions: z.optional(z.object({ credProps: z.optional(z.boolean()) })),
});
export type RegistrationOptions = z.output<typeof registrationOptionsSchema>;

/** What the console hands to startAuthentication() (generateAuthenticationOptions' answer). */
export const authenticationOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.optional(z.number()),
  rpId: z.optional(z.string()),
  allowCredentials: z.optional(z.array(credentialDescriptorSchema)),
  userVerification: z.optional(userVerificationSchema),
  hints: z.optional(z.array(hintSchema)),
});
export type AuthenticationOptions = z.output<typeof authenticationOptionsSchema>;

const clientExtensionResultsSchema = z.object({
  appid: z.optional(z.boolean()),
  credProps: z.optional(z.object({ rk: z.optional(z.boolean()) })),
  hmacCreateSecret: z.optional(z.boolean()),
});

/** startRegistration()'s answer (RegistrationResponseJSON). */
const registrationResponseSchema = z.object(
  {
    id: base64url(1024),
    rawId: base64url(1024),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: base64url(4096),
      attestationObject: base64url(32_768),
      authenticatorData: z.optional(base64url(16_384)),
      transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
      publicKeyAlgorithm: z.optional(z.number()),
      publicKey: z.optional(base64url(4096)),
    }),
    authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
    clientExtensionResults: clientExtensionResultsSchema,
  },
  { error: 'That is not a passkey answer from a browser. Please try adding the passkey again.' },
);
export type RegistrationResponse = z.output<typeof registrationResponseSchema>;

/** startAuthentication()'s answer (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object(
  {
    id: base64url(1024),
    rawId: base64url(1024),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: base64url(4096),
      authenticatorData: base64url(16_384),
      // On Node 24 @simplewebauthn/server also offers ML-DSA (FIPS 204, post-quantum), and Chromium
      // signs with it: ML-DSA-44's signature is 2,420 bytes, ML-DSA-87's 4,627 (6,170 characters
      // here). 1,024 characters held only ECDSA and RSA, and refused those passkeys.
      signature: base64url(8192),
      userHandle: z.optional(base64url(256)),
    }),
    authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
    clientExtensionResults: clientExtensionResultsSchema,
  },
  { error: 'That is not a passkey answer from a browser. Please try your passkey again.' },
);
export type AuthenticationResponse = z.output<typeof authenticationResponseSchema>;

// Invisible and control characters are refused rather than dropped: the name is the operator's
// own label, so they retype it; NFKC folds look-alike width forms ("ＭａｃＢｏｏｋ" → "MacBook").
const hidden = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
export const passkeyNameSchema = z.string({ error: 'Please give the passkey a name, like “Work laptop”.' }).check(
  z.overwrite((v) => v.normalize('NFKC').trim().replace(/\s+/g, ' ')),
  z.minLength(1, 'Please give the passkey a name, like “Work laptop”.'),
  z.maxLength(passkeyLimits.name, `A passkey’s name can be at most ${passkeyLimits.name} characters.`),
  z.refine(
    (v) => !hidden.test(v),
    'A passkey’s name can hold letters, digits, spaces and punctuation, but no invisible characters.',
  ),
);

/** POST adminApiPaths.passkeys: the name the operator chose, and the browser's answer. */
export const addPasskeySchema = z.strictObject({ name: passkeyNameSchema, response: registrationResponseSchema });
export type AddPasskeyRequest = z.output<typeof addPasskeySchema>;

export const renamePasskeySchema = z.strictObject({ name: passkeyNameSchema });

const passkeyEntrySchema = z.object({
  /** A public id for renaming and removing (not the credential's id). */
  id: z.string(),
  name: z.string(),
  /** Kept by a password manager and synced to the operator's other devices, or on this one only. */
  synced: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type PasskeyEntry = z.output<typeof passkeyEntrySchema>;

export const passkeysReplySchema = z.object({ passkeys: z.array(passkeyEntrySchema) });
export type PasskeysReply = z.output<typeof passkeysReplySchema>;

export const passkeyReplySchema = z.object({ passkey: passkeyEntrySchema });
