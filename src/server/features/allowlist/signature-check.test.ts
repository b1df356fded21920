import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Bytes, Hex, PersonalMessage, Signature } from 'ox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { allowlistContent, buildTestApp, type TestApp } from '../../test/built-app.ts';
import { testAccount } from '../../test/test-account.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { postJsonAs, visitPage } from '../../test/visitor.ts';
import { checkSignature } from './signature-check.ts';

// A secp256k1 signature (r, s) has a twin (r, n − s) with the other parity, made from it
// without the key: both verify against the same key. EIP-2 lets only the low-s one count. The
// twin is checked here with @noble/curves' own ECDSA (not ox's recovery, which the code under test
// uses): that it really is the same key's signature, so refusing it is a rule, not a bad read.

const N = secp256k1.Point.CURVE().n;

/** The high-s twin of a 65-byte signature, as an attacker would write it from a valid one. */
function twinOf(signature: Hex.Hex): Hex.Hex {
  const { r, s, yParity } = Signature.fromHex(signature);
  return Signature.toHex({ r, s: Hex.fromNumber(N - BigInt(s), { size: 32 }), yParity: yParity === 0 ? 1 : 0 });
}

const compact = (sig: Hex.Hex) => Bytes.fromHex(Hex.slice(sig, 0, 64));

describe('the high-s twin of a valid signature', () => {
  const alice = testAccount();
  const text = 'dh.example wants you to sign in with your Ethereum account:\n…';
  const hash = Bytes.fromHex(PersonalMessage.getSignPayload(Hex.fromString(text)));
  const signature = alice.sign(text);
  const twin = twinOf(signature);
  const publicKey = secp256k1.getPublicKey(Bytes.fromHex(alice.privateKey), false);

  it('is the same key’s signature, by a second library’s ECDSA, and only the low-s one passes EIP-2', () => {
    expect(twin).not.toBe(signature);
    // Signed with lowS, as every wallet signs: the original is low-s, its twin high-s.
    const verify = (sig: Hex.Hex, lowS: boolean) =>
      secp256k1.verify(compact(sig), hash, publicKey, { prehash: false, lowS });
    expect(verify(signature, true)).toBe(true);
    expect(verify(twin, false)).toBe(true); // valid ECDSA for the same key…
    expect(verify(twin, true)).toBe(false); // …that a low-s check (EIP-2) refuses
    // noble's recovery takes [recovery, r, s]: the twin recovers alice's own key.
    const recovered = (sig: Hex.Hex) =>
      secp256k1.recoverPublicKey(Bytes.concat(Bytes.fromNumber(Signature.fromHex(sig).yParity), compact(sig)), hash, {
        prehash: false,
      });
    expect(Hex.fromBytes(recovered(twin))).toBe(Hex.fromBytes(secp256k1.getPublicKey(Bytes.fromHex(alice.privateKey))));
    expect(Hex.fromBytes(recovered(signature))).toBe(Hex.fromBytes(recovered(twin)));
  });

  it('is refused as high-s, though it recovers to the address; the original is valid', async () => {
    const opts = { text, address: alice.address, contractCheck: null };
    expect(await checkSignature({ ...opts, signature })).toBe('valid');
    expect(await checkSignature({ ...opts, signature: twin })).toBe('high-s');
  });

  it('is refused without asking a node, when one is set', async () => {
    const asked: string[] = [];
    const contractCheck = async (_a: string, _h: string, sig: string) => (asked.push(sig), true);
    expect(await checkSignature({ text, signature: twin, address: alice.address, contractCheck })).toBe('high-s');
    expect(asked).toEqual([]);
  });

  it('by another key, is still a contract wallet’s to judge (EIP-1271): the node is asked', async () => {
    const owner = testAccount(); // a contract wallet's owner signs; the contract checks
    const contract = testAccount().address;
    const ownerTwin = twinOf(owner.sign(text));
    const asked: string[] = [];
    const contractCheck = async (_a: string, _h: string, sig: string) => (asked.push(sig), true);
    expect(await checkSignature({ text, signature: ownerTwin, address: contract, contractCheck })).toBe('valid');
    expect(asked).toEqual([ownerTwin]);
  });
});

describe.each(dialectCases)('the allowlist refuses a high-s signature in words ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, content: allowlistContent() });
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });
  beforeEach(() => {
    if (!skip) t.clock.advance(5_000);
  });

  it.skipIf(skip)('answers 400 with the words, adds nothing, and the wallet’s own signature still joins', async () => {
    const alice = testAccount();
    const visitor = await visitPage(t.app);
    t.clock.advance(5_000);
    const challenge = await postJsonAs(t.app, visitor, apiPaths.allowlistChallenge, {
      address: alice.address,
      purpose: 'join',
    });
    const { message } = challenge.json<{ message: string }>();
    const signature = alice.sign(message);

    const refused = await postJsonAs(t.app, visitor, apiPaths.allowlistJoin, { message, signature: twinOf(signature) });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<ApiErrorBody>().error.message).toBe(walletRefusals.highS);
    expect(
      await store.db.selectFrom('allowlist_entries').select('address').where('address', '=', alice.address).execute(),
    ).toEqual([]);

    // Refused before the nonce is spent: the low-s signature of the same message joins.
    const joined = await postJsonAs(t.app, visitor, apiPaths.allowlistJoin, { message, signature });
    expect(joined.statusCode, joined.body).toBe(200);
  });
});
