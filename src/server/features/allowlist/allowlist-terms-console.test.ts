import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { allowlistOverviewSchema } from '../../../shared/admin/allowlist.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { apiErrorSchema } from '../../../shared/api-error.ts';
import { adminApiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { testAccount } from '../../test/test-account.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';
import { countCountryRefusal } from './allowlist-store.ts';
import { ProofCache } from './proof-cache.ts';
import { LEAF_ENCODING } from './snapshots.ts';

// The terms in the console (docs/decisions/0068-who-may-join.md): which version each entry
// accepted, the live one, refusals by country, and a snapshot that leaves out the entries with no
// terms or an older version.
const LIVE = '2026-12-07';
const content = parseSiteContent({
  ...siteContent,
  wallet: { mode: 'allowlist', chainId: 1 },
  presaleTerms: { ...siteContent.presaleTerms, version: LIVE, restrictedCountries: ['US', 'CU'] },
});

describe.each(dialectCases)('the presale terms in the console ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  // Two on the live terms, one on an older version, one from before any terms.
  const current = [testAccount().address, testAccount().address];
  const older = testAccount().address;
  const preTerms = testAccount().address;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    t = await buildTestApp({ store, content });
    const at = t.clock().toISOString();
    const entry = (address: string, terms_version: string | null) => ({
      address,
      joined_at: at,
      country: 'DE',
      terms_version,
    });
    await store.db
      .insertInto('allowlist_entries')
      .values([entry(current[0] ?? '', LIVE), entry(current[1] ?? '', LIVE), entry(older, '2026-01-01')])
      .execute();
    // As a row from before migration 0031 reads: no version at all.
    await store.db
      .insertInto('allowlist_entries')
      .values({ address: preTerms, joined_at: at, country: 'DE' })
      .execute();
    for (const country of ['CU', 'CU', 'US', 'CU']) await countCountryRefusal(store.db, country);
    alice = new ConsoleClient(t.app);
    bob = new ConsoleClient(t.app);
    await alice.signIn(await makeOperator(store.db, 'alice@dh.example', t.clock(), 'sender'), t.clock());
    await bob.signIn(await makeOperator(store.db, 'bob@dh.example', t.clock(), 'sender'), t.clock());
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });

  const overview = async () => {
    const res = await alice.get(adminApiPaths.allowlist);
    expect(res.statusCode, res.body).toBe(200);
    return allowlistOverviewSchema.parse(res.json());
  };

  it.skipIf(skip)('shows each entry’s terms version, the live one, and refusals as counts by country', async () => {
    const seen = await overview();
    expect(seen.termsVersion).toBe(LIVE);
    expect(seen.onCurrentTerms).toBe(2);
    const versions = Object.fromEntries(seen.entries.map((e) => [e.address, e.termsVersion]));
    expect(versions).toEqual({
      [current[0] ?? '']: LIVE,
      [current[1] ?? '']: LIVE,
      [older]: '2026-01-01',
      [preTerms]: null,
    });
    expect(seen.refusedByCountry).toEqual([
      { country: 'CU', refused: 3 },
      { country: 'US', refused: 1 },
    ]);
  });

  it.skipIf(skip)(
    'refuses a freeze whose terms choice is not a yes or no, in words, and asks for nothing',
    async () => {
      for (const currentTermsOnly of ['yes', 1, null, { on: true }]) {
        const res = await alice.post(adminApiPaths.allowlistFreeze, { keepOpen: true, currentTermsOnly });
        expect(res.statusCode, res.body).toBe(400);
        const body = apiErrorSchema.parse(res.json());
        expect(body.error.message.length).toBeGreaterThan(10);
        expect(res.body).not.toMatch(/at \w+ \(|node_modules/);
      }
      expect((await overview()).freezeRequest).toBeNull();
    },
  );

  it.skipIf(skip)(
    'a freeze that leaves out older and no terms holds exactly the live terms’ entries, audited; their proofs verify',
    async () => {
      const asked = await alice.post(adminApiPaths.allowlistFreeze, { keepOpen: true, currentTermsOnly: true });
      expect(asked.statusCode, asked.body).toBe(200);
      expect((await overview()).freezeRequest).toMatchObject({ currentTermsOnly: true });
      const approved = await bob.post(adminApiPaths.allowlistFreezeApprove, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const { snapshot } = approved.json<{ snapshot: { id: string; root: string; entries: number } }>();
      expect(snapshot).toMatchObject({ entries: 2, termsVersion: LIVE });
      expect((await overview()).snapshots[0]).toMatchObject({ id: snapshot.id, termsVersion: LIVE });

      const stored = await store.db
        .selectFrom('allowlist_snapshots')
        .select('tree')
        .where('id', '=', snapshot.id)
        .executeTakeFirstOrThrow();
      const tree = StandardMerkleTree.load(JSON.parse(stored.tree) as Parameters<typeof StandardMerkleTree.load>[0]);
      expect([...tree.entries()].map(([, leaf]) => String(leaf[0])).sort()).toEqual([...current].sort());

      const proofs = new ProofCache(store.db, () => t.clock().getTime());
      for (const address of current) {
        const answer = await proofs.proof(address);
        if (answer === null || answer === 'no-snapshot') throw new Error(`no proof for ${address}`);
        expect(StandardMerkleTree.verify(snapshot.root, LEAF_ENCODING, [address], answer.proof)).toBe(true);
      }
      expect(await proofs.proof(older)).toBeNull();
      expect(await proofs.proof(preTerms)).toBeNull();

      const audited = await store.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('action', 'in', ['allowlist.freeze-requested', 'allowlist.frozen'])
        .execute();
      expect(audited.map((a) => a.detail)).toEqual([
        expect.stringContaining(`only entries that accepted terms version ${LIVE}`),
        expect.stringContaining(`2 entries; only entries that accepted terms version ${LIVE}`),
      ]);
    },
  );

  it.skipIf(skip)('a freeze that keeps everyone holds every entry, and says so in the audit', async () => {
    t.clock.advance(1000);
    expect((await alice.post(adminApiPaths.allowlistFreeze, { keepOpen: true })).statusCode).toBe(200);
    const approved = await bob.post(adminApiPaths.allowlistFreezeApprove, {});
    expect(approved.json()).toMatchObject({ snapshot: { entries: 4, termsVersion: null } });
    const last = await store.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'allowlist.frozen')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.detail).toContain('every entry, whatever terms it accepted');
  });
});
