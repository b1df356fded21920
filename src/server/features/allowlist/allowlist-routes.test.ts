import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { walletPageWords, walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { AllowlistPurpose } from '../../../shared/allowlist/allowlist-schema.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { parseSiteContent, type WalletMode } from '../../../shared/content-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { fillPath } from '../../../shared/route-contract.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { dialectCases, openTestStore, testClock, type TestStore } from '../../test/test-store.ts';
import { postJsonAs, visitPage, type Visitor } from '../../test/visitor.ts';
import { testAccount, type TestAccount } from '../../test/test-account.ts';
import { joinStatement } from './siwe-message.ts';

const CHAIN = 1;
const contentIn = (mode: WalletMode) => parseSiteContent({ ...siteContent, wallet: { mode, chainId: CHAIN } });

const post = postJsonAs;

const errorOf = (res: { json: <T>() => T }) => res.json<ApiErrorBody>().error;

describe.each(dialectCases)('the allowlist routes ($label)', ({ dialect, skip }) => {
  let store: TestStore;
  let t: TestApp;
  let visitor: Visitor;
  let alice: TestAccount;

  beforeAll(async () => {
    if (skip) return;
    store = await openTestStore(dialect);
    // The limit has its own test below; these send many messages from one client.
    t = await buildTestApp({ store, content: contentIn('allowlist'), env: { ALLOWLIST_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    if (skip) return;
    await t.close();
    await store.destroy();
  });
  beforeEach(async () => {
    if (skip) return;
    alice = testAccount();
    visitor = await visitPage(t.app);
    t.clock.advance(5_000); // a person takes a few seconds before pressing the button
  });

  const challenge = async (address: string, purpose: AllowlistPurpose = 'join') => {
    const res = await post(t.app, visitor, apiPaths.allowlistChallenge, { address, purpose });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ message: string }>().message;
  };
  const send = (purpose: AllowlistPurpose, message: string, signature: string) =>
    post(t.app, visitor, purpose === 'join' ? apiPaths.allowlistJoin : apiPaths.allowlistLeave, { message, signature });
  const status = (address: string) =>
    t.app
      .inject({ url: fillPath(apiPaths.allowlistStatus, { address }) })
      .then((r) => r.json<{ since: string | null }>());
  const refusedWith = async (res: Awaited<ReturnType<typeof send>>, status: number, words: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(errorOf(res).message).toBe(words);
  };

  it.skipIf(skip)(
    'writes the exact EIP-4361 message: host, URI, chain, nonce, issued-at, 10-minute expiry, a statement in words',
    async () => {
      const message = await challenge(alice.address.toLowerCase());
      const lines = message.split('\n');
      expect(lines[0]).toBe('dh.example wants you to sign in with your Ethereum account:');
      expect(lines[1]).toBe(alice.address); // EIP-55, whatever case was sent
      expect(lines[3]).toBe(joinStatement(siteContent.presaleTerms));
      expect(lines[3]).toContain(`I accept the presale terms, version ${siteContent.presaleTerms.version}.`);
      expect(lines[3]).toContain('costs nothing');
      expect(lines[3]).toContain('grants no permission to move your funds');
      expect(lines.slice(5)).toEqual([
        'URI: https://dh.example/',
        'Version: 1',
        'Chain ID: 1',
        expect.stringMatching(/^Nonce: [a-zA-Z0-9]{32,}$/),
        `Issued At: ${t.clock().toISOString()}`,
        `Expiration Time: ${new Date(t.clock().getTime() + 10 * 60_000).toISOString()}`,
        'Resources:',
        '- https://dh.example/terms',
      ]);
    },
  );

  it.skipIf(skip)(
    'joins with a signature, once: signing in again keeps the first time; then leaves with another',
    async () => {
      const message = await challenge(alice.address);
      const joined = await send('join', message, alice.sign(message));
      expect(joined.statusCode, joined.body).toBe(200);
      const since = t.clock().toISOString();
      expect(joined.json()).toEqual({ address: alice.address, since, linkToken: expect.stringMatching(/^[\w-]{32}$/) });
      expect(await status(alice.address.toLowerCase())).toEqual({ address: alice.address, since });

      t.clock.advance(60_000);
      const again = await challenge(alice.address);
      const second = await send('join', again, alice.sign(again));
      expect(second.json()).toEqual({ address: alice.address, since, linkToken: expect.any(String) });
      const rows = await store.db
        .selectFrom('allowlist_entries')
        .selectAll()
        .where('address', '=', alice.address)
        .execute();
      expect(rows).toHaveLength(1);
      // Stored: the address, the time, the country of the server's own lookup, and the email link's
      // columns (a subscriber's id, never an address; the link token's digest), the terms' version
      // accepted; nothing more.
      expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
        'address',
        'country',
        'email_linked_at',
        'joined_at',
        'link_token_expires_at',
        'link_token_hash',
        'subscriber_id',
        'terms_version',
      ]);
      expect(rows[0]?.subscriber_id).toBeNull();

      const bye = await challenge(alice.address, 'leave');
      expect(bye.split('\n')[3]).toBe(walletRefusals.statement.leave);
      const left = await send('leave', bye, alice.sign(bye));
      expect(left.statusCode, left.body).toBe(200);
      expect(left.json()).toEqual({ address: alice.address, since: null });
      expect(await status(alice.address)).toEqual({ address: alice.address, since: null });
    },
  );

  it.skipIf(skip)('refuses a replayed message: each nonce counts once', async () => {
    const message = await challenge(alice.address);
    const signature = alice.sign(message);
    expect((await send('join', message, signature)).statusCode).toBe(200);
    await refusedWith(await send('join', message, signature), 409, walletRefusals.usedNonce);
  });

  it.skipIf(skip)('refuses an expired message, and one whose nonce this site never wrote', async () => {
    const message = await challenge(alice.address);
    t.clock.advance(10 * 60_000);
    await refusedWith(await send('join', message, alice.sign(message)), 400, walletRefusals.expired);

    const fresh = await challenge(alice.address);
    const stranger = fresh.replace(/Nonce: \w+/, 'Nonce: abcdefgh12345678');
    await refusedWith(await send('join', stranger, alice.sign(stranger)), 400, walletRefusals.unknownNonce);
  });

  it.skipIf(skip)('refuses a message for another domain, URI or chain, even when signed by its address', async () => {
    const message = await challenge(alice.address);
    const cases: [string, string][] = [
      [
        message.replace('dh.example wants', 'dh-presale.example wants'),
        walletRefusals.wrongDomain({ domain: 'dh.example' }),
      ],
      [
        message.replace('URI: https://dh.example/', 'URI: https://dh-presale.example/'),
        walletRefusals.wrongUri({ uri: 'https://dh.example/' }),
      ],
      [message.replace('Chain ID: 1', 'Chain ID: 56'), walletRefusals.wrongChain({ chainId: 1 })],
    ];
    for (const [text, words] of cases) await refusedWith(await send('join', text, alice.sign(text)), 400, words);
    // None of them used the nonce up: the message as written still joins.
    expect((await send('join', message, alice.sign(message))).statusCode).toBe(200);
  });

  it.skipIf(skip)(
    'refuses a signature by another key, and a message naming another address than it was written for',
    async () => {
      const mallory = testAccount();
      const message = await challenge(alice.address);
      await refusedWith(
        await send('join', message, mallory.sign(message)),
        400,
        walletRefusals.otherSigner({ address: alice.address }),
      );
      // Mallory's own signature over a message changed to name her address: her address, but a
      // nonce written for Alice.
      const swapped = message.replace(alice.address, mallory.address);
      await refusedWith(await send('join', swapped, mallory.sign(swapped)), 400, walletRefusals.otherAddress);
      expect((await status(alice.address)).since).toBeNull();
      expect((await status(mallory.address)).since).toBeNull();
    },
  );

  it.skipIf(skip)('refuses a join message sent to leave (the statement says what it does)', async () => {
    const message = await challenge(alice.address, 'join');
    await refusedWith(await send('leave', message, alice.sign(message)), 400, walletRefusals.wrongStatement);
    const edited = message.replace(joinStatement(siteContent.presaleTerms), 'Sign to win free coins.');
    await refusedWith(await send('join', edited, alice.sign(edited)), 400, walletRefusals.wrongStatement);
  });

  it.skipIf(skip)('refuses malformed messages and signatures in words, never a crash', async () => {
    const message = await challenge(alice.address);
    const malformed = [
      'hello',
      `${message}\nResources:\n- https://evil.example/`,
      message.replace('Version: 1', 'Version: 2'),
      message.replace(/Expiration Time: .*/, 'Expiration Time: tomorrow'),
      message.replace(/\nExpiration Time: .*/, ''),
      message.replace(alice.address, '0xnot-an-address'),
    ];
    for (const text of malformed)
      await refusedWith(await send('join', text, alice.sign(text)), 400, walletRefusals.malformed);
    await refusedWith(
      await send('join', message, '0x1234'),
      400,
      walletRefusals.contractWalletUnchecked({ address: alice.address }),
    );
    await refusedWith(await send('join', message, `0x${'00'.repeat(65)}`), 400, walletRefusals.unreadableSignature);
    const bad = await send('join', message, 'not hex');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).code).toBe('invalid_fields');
    const badAddress = await post(t.app, visitor, apiPaths.allowlistChallenge, { address: '0x123', purpose: 'join' });
    expect(badAddress.statusCode).toBe(400);
    expect(errorOf(badAddress).fields?.address).toContain('0x followed by 40 hexadecimal characters');
  });

  it.skipIf(skip)(
    'takes writes only from our own page: same origin, CSRF token, and not quicker than a person',
    async () => {
      const body = { address: alice.address, purpose: 'join' };
      const cross = await t.app.inject({
        method: 'POST',
        url: apiPaths.allowlistChallenge,
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'cross-site',
          cookie: visitor.cookie,
          'x-xsrf-token': visitor.xsrf,
        },
        payload: JSON.stringify(body),
      });
      expect(cross.statusCode).toBe(403);
      const noToken = await post(t.app, { ...visitor, xsrf: '' }, apiPaths.allowlistChallenge, body);
      expect(noToken.statusCode).toBe(403);
      expect(errorOf(noToken).code).toBe('csrf');
      const quick = await visitPage(t.app);
      const tooFast = await post(t.app, quick, apiPaths.allowlistChallenge, body);
      await refusedWith(tooFast, 400, walletRefusals.tooFast);
    },
  );
});

describe('the allowlist per wallet mode', () => {
  it('the page: coming-soon has the flipping button and no block; allowlist and closed have a link and the block', async () => {
    const pageIn = async (mode: WalletMode) => {
      const t = await buildTestApp({ content: contentIn(mode) });
      try {
        return (await t.app.inject({ url: '/' })).body;
      } finally {
        await t.close();
      }
    };
    const soon = await pageIn('coming-soon');
    expect(soon).toContain('data-island="wallet"');
    expect(soon).not.toContain('id="allowlist"');
    const open = await pageIn('allowlist');
    expect(open).not.toContain('data-island="wallet"');
    expect(open).toContain(`href="/#allowlist">${walletPageWords.headerJoin}</a>`);
    expect(open).toContain(
      'data-island="allowlist" data-props="{&quot;chainId&quot;:1,&quot;locale&quot;:&quot;en&quot;}"',
    );
    expect(open).toContain(walletPageWords.needs);
    expect(open).toContain(walletPageWords.never);
    const closed = await pageIn('closed');
    expect(closed).toContain(walletPageWords.closed);
    expect(closed).toContain(`>${walletPageWords.headerClosed}</a>`);
    expect(closed).not.toContain('data-island="allowlist"');
  });

  const account = testAccount();
  async function appIn(mode: WalletMode) {
    const t = await buildTestApp({ content: contentIn(mode) });
    const visitor = await visitPage(t.app);
    t.clock.advance(5_000);
    return { t, visitor };
  }

  it('coming-soon: not open, in words', async () => {
    const { t, visitor } = await appIn('coming-soon');
    try {
      const res = await post(t.app, visitor, apiPaths.allowlistChallenge, {
        address: account.address,
        purpose: 'join',
      });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).message).toBe(walletRefusals.notOpen);
    } finally {
      await t.close();
    }
  });

  it('closed: nobody joins; leaving still works', async () => {
    const { t, visitor } = await appIn('closed');
    try {
      const join = await post(t.app, visitor, apiPaths.allowlistChallenge, {
        address: account.address,
        purpose: 'join',
      });
      expect(join.statusCode).toBe(409);
      expect(errorOf(join).message).toBe(walletRefusals.closed);
      const leave = await post(t.app, visitor, apiPaths.allowlistChallenge, {
        address: account.address,
        purpose: 'leave',
      });
      expect(leave.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('limits each client network per minute, in words', async () => {
    const t = await buildTestApp({ content: contentIn('allowlist'), env: { ALLOWLIST_RATE_LIMIT: '2' } });
    try {
      const visitor = await visitPage(t.app);
      t.clock.advance(5_000);
      const ask = () =>
        post(t.app, visitor, apiPaths.allowlistChallenge, { address: account.address, purpose: 'join' });
      expect((await ask()).statusCode).toBe(200);
      expect((await ask()).statusCode).toBe(200);
      const third = await ask();
      expect(third.statusCode).toBe(429);
      expect(errorOf(third).message).toMatch(/^Too many tries from your network\. Please try again in \d+ seconds\.$/);
    } finally {
      await t.close();
    }
  });
});

describe('the allowlist on two instances', () => {
  it('a message one instance wrote is taken by the other, and only once across both', async () => {
    const store = await openTestStore('sqlite');
    const clock = testClock();
    const opts = { store, clock, content: contentIn('allowlist') };
    const a = await buildTestApp(opts);
    const b = await buildTestApp(opts);
    try {
      const account = testAccount();
      const visitor = await visitPage(a.app);
      clock.advance(5_000);
      const asked = await post(a.app, visitor, apiPaths.allowlistChallenge, {
        address: account.address,
        purpose: 'join',
      });
      const { message } = asked.json<{ message: string }>();
      const body = { message, signature: account.sign(message) };
      expect((await post(b.app, visitor, apiPaths.allowlistJoin, body)).statusCode).toBe(200);
      const replay = await post(a.app, visitor, apiPaths.allowlistJoin, body);
      expect(replay.statusCode).toBe(409);
      expect(errorOf(replay).message).toBe(walletRefusals.usedNonce);
    } finally {
      await a.close();
      await b.close();
      await store.destroy();
    }
  });
});
