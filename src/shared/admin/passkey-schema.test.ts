import { describe, expect, it } from 'vitest';
import { authenticationResponseSchema } from './passkey-schema.ts';

const b64url = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64url');
const answer = (signatureBytes: number) => ({
  id: b64url(32),
  rawId: b64url(32),
  type: 'public-key',
  response: { clientDataJSON: b64url(134), authenticatorData: b64url(37), signature: b64url(signatureBytes) },
  clientExtensionResults: {},
});

describe("a passkey's sign-in answer", () => {
  // Node 24's @simplewebauthn/server offers ML-DSA-44 first, and Chromium signs with it.
  it('takes post-quantum signatures (ML-DSA-44 2,420 bytes, ML-DSA-87 4,627) as well as ECDSA and RSA', () => {
    for (const bytes of [64, 72, 256, 512, 2420, 3309, 4627])
      expect(authenticationResponseSchema.safeParse(answer(bytes)).success, `${bytes} bytes`).toBe(true);
  });

  it('refuses a signature larger than any algorithm makes, in words', () => {
    const result = authenticationResponseSchema.safeParse(answer(6200));
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('larger than any authenticator sends');
  });
});
