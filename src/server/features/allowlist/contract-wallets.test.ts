import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AbiParameters, Hex, PersonalMessage } from 'ox';
import { SignatureErc6492 } from 'ox/erc6492';
import { afterEach, describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import type { ApiErrorBody } from '../../../shared/api-error.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { testAccount } from '../../test/test-account.ts';
import { visitPage, type Visitor } from '../../test/visitor.ts';

// Smart-contract wallets (EIP-1271, EIP-6492) through ETH_RPC_URL: a node of our own on loopback
// that decodes the eth_call the server sends (the universal validator's creation code and its
// arguments) and answers as a chain would: 0x01 valid, 0x00 not, a revert, or nothing at all.

type NodeAnswer = { result: string } | { error: { code: number; message: string } } | 'down';

async function fakeNode(answer: () => NodeAnswer) {
  const calls: { signer: string; hash: string; signature: string }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { method: string; params: [{ data: Hex.Hex; to?: string }, string] };
      expect(body.method).toBe('eth_call');
      expect(body.params[0].to).toBeUndefined(); // deployless: no contract of ours on chain
      const { data } = body.params[0];
      const code = SignatureErc6492.universalSignatureValidatorBytecode;
      expect(data.startsWith(code)).toBe(true);
      const [signer, hash, signature] = AbiParameters.decode(
        AbiParameters.from(['address', 'bytes32', 'bytes']),
        `0x${data.slice(code.length)}`,
      );
      calls.push({ signer, hash, signature });
      const a = answer();
      if (a === 'down') return res.writeHead(502).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, ...a }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function appWithNode(answer: () => NodeAnswer) {
  const node = await fakeNode(answer);
  cleanups.push(node.close);
  const t: TestApp = await buildTestApp({
    content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
    env: { ETH_RPC_URL: node.url },
  });
  cleanups.push(t.close);
  const visitor = await visitPage(t.app);
  t.clock.advance(5_000);
  return { t, node, visitor };
}

const post = (t: TestApp, v: Visitor, url: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      cookie: v.cookie,
      'x-xsrf-token': v.xsrf,
    },
    payload: JSON.stringify(body),
  });

// What a contract wallet returns from personal_sign: its own encoding, not a 65-byte ECDSA signature.
const walletSignature = `0x${'ab'.repeat(97)}`;

describe('smart-contract wallets with ETH_RPC_URL', () => {
  it('asks the node about exactly this address, message hash and signature, and joins when it says valid', async () => {
    const { t, node, visitor } = await appWithNode(() => ({ result: '0x01' }));
    const wallet = testAccount(); // stands for the contract's address
    const { message } = (
      await post(t, visitor, apiPaths.allowlistChallenge, { address: wallet.address, purpose: 'join' })
    ).json<{ message: string }>();
    const res = await post(t, visitor, apiPaths.allowlistJoin, { message, signature: walletSignature });
    expect(res.statusCode, res.body).toBe(200);
    expect(node.calls).toEqual([
      {
        signer: wallet.address,
        hash: PersonalMessage.getSignPayload(Hex.fromString(message)),
        signature: walletSignature,
      },
    ]);
  });

  it('refuses when the node says invalid or the validator reverts, and says the node is down when it is', async () => {
    const answers: NodeAnswer[] = [{ result: '0x00' }, { error: { code: 3, message: 'execution reverted' } }, 'down'];
    const { t, visitor } = await appWithNode(() => answers.shift() ?? 'down');
    const wallet = testAccount();
    const tryJoin = async () => {
      const { message } = (
        await post(t, visitor, apiPaths.allowlistChallenge, { address: wallet.address, purpose: 'join' })
      ).json<{ message: string }>();
      return post(t, visitor, apiPaths.allowlistJoin, { message, signature: walletSignature });
    };
    for (const words of [
      walletRefusals.otherSigner({ address: wallet.address }),
      walletRefusals.otherSigner({ address: wallet.address }),
    ]) {
      const res = await tryJoin();
      expect(res.statusCode).toBe(400);
      expect(res.json<ApiErrorBody>().error.message).toBe(words);
    }
    const down = await tryJoin();
    expect(down.statusCode).toBe(503);
    expect(down.json<ApiErrorBody>().error.message).toBe(walletRefusals.contractWalletDown);
    expect(await t.store.db.selectFrom('allowlist_entries').selectAll().execute()).toEqual([]);
  });

  it('still recovers ordinary signatures locally, without asking the node', async () => {
    const { t, node, visitor } = await appWithNode(() => ({ result: '0x00' }));
    const person = testAccount();
    const { message } = (
      await post(t, visitor, apiPaths.allowlistChallenge, { address: person.address, purpose: 'join' })
    ).json<{ message: string }>();
    expect(
      (await post(t, visitor, apiPaths.allowlistJoin, { message, signature: person.sign(message) })).statusCode,
    ).toBe(200);
    expect(node.calls).toEqual([]);
  });
});
