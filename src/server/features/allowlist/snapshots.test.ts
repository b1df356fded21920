import { randomBytes } from 'node:crypto';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Address } from 'ox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { fillPath } from '../../../shared/route-contract.ts';
import { allowlistContent, buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { PROOF_RECHECK_MS, ProofCache } from './proof-cache.ts';
import { freezeSnapshot, LEAF_ENCODING, registrationOpen, snapshotById } from './snapshots.ts';

const randomAddress = () => Address.checksum(`0x${randomBytes(20).toString('hex')}`);

describe.each(dialectCases)('allowlist snapshots ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  const addresses = Array.from({ length: 10_000 }, randomAddress);

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, content: allowlistContent() });
    const at = t.clock().toISOString();
    for (let i = 0; i < addresses.length; i += 1000)
      await store.db
        .insertInto('allowlist_entries')
        .values(addresses.slice(i, i + 1000).map((address) => ({ address, joined_at: at, country: null })))
        .execute();
  }, 60_000);
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });

  const freeze = (keepOpen: boolean) =>
    store.db
      .transaction()
      .execute((trx) =>
        freezeSnapshot(trx, { now: t.clock(), requestedBy: 'a@dh.example', approvedBy: 'b@dh.example', keepOpen }),
      );

  it.skipIf(skip)(
    'every one of 10,000 proofs verifies with the library’s own verify; a frozen snapshot never changes',
    async () => {
      const first = await freeze(true);
      expect(first.entries).toBe(10_000);
      expect(first.root).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await registrationOpen(store.db)).toBe(true);

      const cache = new ProofCache(store.db, () => t.clock().getTime());
      for (const address of addresses) {
        const answer = await cache.proof(address);
        if (answer === null || answer === 'no-snapshot') throw new Error(`no proof for ${address}`);
        expect(answer.root).toBe(first.root);
        if (!StandardMerkleTree.verify(first.root, LEAF_ENCODING, [address], answer.proof))
          throw new Error(`the proof of ${address} does not verify`);
      }
      // A proof is for its own leaf only.
      const [a, b] = addresses;
      const proofOfA = await cache.proof(a ?? '');
      if (proofOfA === null || proofOfA === 'no-snapshot') throw new Error('no proof');
      expect(StandardMerkleTree.verify(first.root, LEAF_ENCODING, [b], proofOfA.proof)).toBe(false);
      expect(await cache.proof(randomAddress())).toBeNull();

      // The list changes and a second snapshot is frozen: the first is exactly as it was.
      const stored = await snapshotById(store.db, first.id);
      await store.db
        .deleteFrom('allowlist_entries')
        .where('address', '=', a ?? '')
        .execute();
      const late = randomAddress();
      await store.db
        .insertInto('allowlist_entries')
        .values({ address: late, joined_at: t.clock().toISOString(), country: null })
        .execute();
      t.clock.advance(1000);
      const second = await freeze(false);
      expect(second.root).not.toBe(first.root);
      expect(await snapshotById(store.db, first.id)).toEqual(stored);
      expect(StandardMerkleTree.verify(first.root, LEAF_ENCODING, [a], proofOfA.proof)).toBe(true);
      expect(await registrationOpen(store.db)).toBe(false);

      // Within the recheck time the cache still answers from the first; after it, from the second.
      expect(await cache.proof(late)).toBeNull();
      t.clock.advance(PROOF_RECHECK_MS);
      const lateProof = await cache.proof(late);
      if (lateProof === null || lateProof === 'no-snapshot') throw new Error('no proof for the late address');
      expect(lateProof.root).toBe(second.root);
      expect(await cache.proof(a ?? '')).toBeNull();
    },
    120_000,
  );

  it.skipIf(skip)(
    'GET /api/allowlist/proof/:address answers { root, proof }, cacheable, and 404 in words',
    async () => {
      t.clock.advance(PROOF_RECHECK_MS);
      const [, b] = addresses;
      const res = await t.app.inject({ url: fillPath(apiPaths.allowlistProof, { address: (b ?? '').toLowerCase() }) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const { root, proof } = res.json<{ root: string; proof: string[] }>();
      expect(StandardMerkleTree.verify(root, LEAF_ENCODING, [b], proof)).toBe(true);

      const stranger = randomAddress();
      const missing = await t.app.inject({ url: fillPath(apiPaths.allowlistProof, { address: stranger }) });
      expect(missing.statusCode).toBe(404);
      expect(missing.json<ApiErrorBody>().error).toEqual({
        code: 'not_found',
        message: walletRefusals.notOnList({ address: stranger }),
      });
      const bad = await t.app.inject({ url: fillPath(apiPaths.allowlistProof, { address: 'nope' }) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<ApiErrorBody>().error.code).toBe('invalid_fields');
    },
  );
});

describe('the proof route before any snapshot', () => {
  it('says so in words', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ url: fillPath(apiPaths.allowlistProof, { address: randomAddress() }) });
      expect(res.statusCode).toBe(404);
      expect(res.json<ApiErrorBody>().error.message).toBe(walletRefusals.noSnapshot);
    } finally {
      await t.close();
    }
  });
});
