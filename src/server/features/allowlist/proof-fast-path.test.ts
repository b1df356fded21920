import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { Address } from 'ox';
import { describe, expect, it } from 'vitest';
import { siteContent } from '../../../../content/site-content.ts';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { apiPaths, healthPaths } from '../../../shared/paths.ts';
import { fillPath } from '../../../shared/route-contract.ts';
import { FastPaths } from '../../lib/fast-paths.ts';
import { RequestLog } from '../../lib/request-log.ts';
import { ask, header, serveAppTwice, type Answer } from '../../test/fast-path-harness.ts';
import { sampleOf } from '../../test/prometheus-text.ts';
import { PROOF_RECHECK_MS } from './proof-cache.ts';
import { freezeSnapshot, LEAF_ENCODING } from './snapshots.ts';

// The proof route's fast path (decision 0049) against the route itself, over real HTTP
// (fast-path-harness.ts). Every answer must be the same status, the same headers in the same
// order, and the same bytes.

const TOKEN = 'metrics-token-for-the-fast-path-test';
const randomAddress = () => Address.checksum(`0x${randomBytes(20).toString('hex')}`);

describe('the proof fast path answers exactly as the route', () => {
  const served = serveAppTwice({
    content: parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } }),
    env: { LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN },
  });
  const { lines, fastLines, scrape } = served;
  const listed = Array.from({ length: 5 }, randomAddress);

  /** The fast path's answer and the route's, for the same request; the fast one first. */
  const both = async (path: string, opts: Parameters<typeof ask>[2] = {}) => {
    const before = fastLines().length;
    const fast = await ask(served.fastPort, path, opts);
    const viaFast = fastLines().length > before;
    const route = await ask(served.routePort, path, opts);
    return { fast, route, viaFast };
  };
  /** Asserts the two are the same, and that the fast path (not Fastify behind it) answered. */
  const same = async (path: string, opts: Parameters<typeof ask>[2] = {}) => {
    const { fast, route, viaFast } = await both(path, opts);
    expect(fast).toEqual(route);
    expect(viaFast, `the fast path answered ${opts.method ?? 'GET'} ${path}`).toBe(true);
    return fast;
  };
  const freeze = () =>
    served.t.store.db.transaction().execute((trx) =>
      freezeSnapshot(trx, {
        now: served.t.clock(),
        requestedBy: 'a@dh.example',
        approvedBy: 'b@dh.example',
        keepOpen: true,
      }),
    );
  /** Past the periodic check: the next request waits for it (through the route), later ones do not. */
  const checkNow = async () => {
    served.t.clock.advance(PROOF_RECHECK_MS);
    const first = await both(fillPath(apiPaths.allowlistProof, { address: randomAddress() }));
    expect(first.viaFast, 'a request that finds the check due goes to the route').toBe(false);
  };
  const proofPath = (address: string) => fillPath(apiPaths.allowlistProof, { address });

  it('before any snapshot: 404 in the one error shape, in words', async () => {
    await checkNow();
    const answer = await same(proofPath(listed[0] ?? ''));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'not_found', message: walletRefusals.noSnapshot } });
    expect(header(answer, 'cache-control')).toBeUndefined();
  });

  it('a listed address, lower-case or checksummed, HEAD, If-None-Match; an unlisted one; a malformed one', async () => {
    const at = served.t.clock().toISOString();
    await served.t.store.db
      .insertInto('allowlist_entries')
      .values(listed.map((address) => ({ address, joined_at: at, country: null })))
      .execute();
    const snapshot = await freeze();
    await checkNow();
    const [a = '', b = ''] = listed;

    const checksummed = await same(proofPath(a));
    expect(checksummed.status).toBe(200);
    const { root, proof } = JSON.parse(checksummed.body) as { root: string; proof: string[] };
    expect(root).toBe(snapshot.root);
    expect(StandardMerkleTree.verify(root, LEAF_ENCODING, [a], proof)).toBe(true);
    expect(header(checksummed, 'cache-control')).toBe('public, max-age=60');
    expect(header(checksummed, 'content-type')).toBe('application/json; charset=utf-8');
    expect(header(checksummed, 'content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const etag = header(checksummed, 'etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    // The same answer whatever the case it was asked in.
    const lower = await same(proofPath(a.toLowerCase()));
    expect(lower.body).toBe(checksummed.body);
    expect(header(lower, 'etag')).toBe(etag);

    const head = await same(proofPath(a), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(header(head, 'content-length')).toBe(String(Buffer.byteLength(checksummed.body)));

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const fresh = await same(proofPath(a), { headers: { 'if-none-match': ifNoneMatch } });
      expect(fresh.status, ifNoneMatch).toBe(304);
      expect(fresh.body).toBe('');
      expect(header(fresh, 'etag')).toBe(etag);
      expect(header(fresh, 'content-length')).toBeUndefined();
    }
    // Fastify's HEAD route gives its 304 a "Content-Length: 0"; the fast path leaves this one to it.
    const headFresh = await both(proofPath(a), { method: 'HEAD', headers: { 'if-none-match': etag } });
    expect(headFresh.fast).toEqual(headFresh.route);
    expect(headFresh.viaFast).toBe(false);
    expect(headFresh.fast.status).toBe(304);
    // Another address's tag is not this one's.
    const other = await same(proofPath(b), { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    expect(header(other, 'etag')).not.toBe(etag);

    const stranger = randomAddress();
    const missing = await same(proofPath(stranger), { headers: { 'if-none-match': '*' } });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({
      error: { code: 'not_found', message: walletRefusals.notOnList({ address: stranger }) },
    });
    expect(header(missing, 'etag')).toBeUndefined();

    // Not an address: the route's own 400 in words (the fast path leaves it to the route).
    for (const bad of ['nope', `0x${'g'.repeat(40)}`, `${a}0`, a.slice(0, -1)]) {
      const { fast, route, viaFast } = await both(proofPath(bad));
      expect(fast).toEqual(route);
      expect(viaFast).toBe(false);
      expect(fast.status).toBe(400);
      expect(JSON.parse(fast.body)).toMatchObject({
        error: { code: 'invalid_fields', fields: { address: expect.stringContaining('Ethereum address') } },
      });
    }
  });

  it('after a new freeze: the new snapshot once the check has run, on both', async () => {
    const [a = ''] = listed;
    const before = await same(proofPath(a));
    const late = randomAddress();
    await served.t.store.db
      .insertInto('allowlist_entries')
      .values({ address: late, joined_at: served.t.clock().toISOString(), country: null })
      .execute();
    const second = await freeze();
    // Until the check, the snapshot loaded is served, as the route does.
    expect((await same(proofPath(late))).status).toBe(404);
    await checkNow();
    const after = await same(proofPath(a), { headers: { 'if-none-match': header(before, 'etag') ?? '' } });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toMatchObject({ root: second.root });
    expect(header(after, 'etag')).not.toBe(header(before, 'etag'));
    const lateProof = await same(proofPath(late));
    expect(lateProof.status).toBe(200);
    const { root, proof } = JSON.parse(lateProof.body) as { root: string; proof: string[] };
    expect(StandardMerkleTree.verify(root, LEAF_ENCODING, [late], proof)).toBe(true);
  });

  it('counts its answers in the same HTTP metrics, and logs the same one line', async () => {
    const [a = ''] = listed;
    const labels = { method: 'GET', route: apiPaths.allowlistProof, status: '200' };
    const countOf = (text: string) => sampleOf(text, 'dh_http_requests_total', labels) ?? 0;
    const timedOf = (text: string) =>
      sampleOf(text, 'dh_http_request_duration_seconds_count', { method: 'GET', route: apiPaths.allowlistProof }) ?? 0;
    const before = await scrape();
    await same(proofPath(a)); // one through each
    const after = await scrape();
    expect(countOf(after) - countOf(before)).toBe(2);
    expect(timedOf(after) - timedOf(before)).toBe(2);

    const fast = fastLines().at(-1);
    // The route's line for the same request (the scrapes above have lines of their own).
    const route = lines
      .filter(
        (l) => String(l.reqId).startsWith('req-') && (l.req as { path?: string } | undefined)?.path === proofPath(a),
      )
      .at(-1);
    const ofFast = lines.filter((l) => l.reqId === fast?.reqId);
    const ofRoute = lines.filter((l) => l.reqId === route?.reqId);
    expect(ofFast.map((l) => l.msg)).toEqual(['request completed']);
    expect(ofRoute.map((l) => l.msg)).toEqual(['request completed']);
    expect(fast?.req).toEqual({ method: 'GET', path: proofPath(a) });
    expect(fast?.req).toEqual(route?.req);
    expect(Object.keys(fast ?? {}).sort()).toEqual(Object.keys(route ?? {}).sort());
    expect(fast?.res).toEqual(route?.res);
    expect(fast?.level).toEqual(route?.level);
  });

  it('leaves every other request to Fastify, untouched', async () => {
    const [a = ''] = listed;
    const others: [string, Parameters<typeof ask>[2]][] = [
      [healthPaths.alive, {}],
      [fillPath(apiPaths.allowlistStatus, { address: a }), {}],
      [`${proofPath(a)}?fresh=1`, {}],
      [`${proofPath(a)}/`, {}],
      [proofPath(a).toUpperCase(), {}],
      [proofPath(a), { method: 'POST', headers: { 'content-type': 'application/json' } }],
      [proofPath(a), { method: 'OPTIONS' }],
      ['/no-such-page', {}],
    ];
    // The status route's limit counts this client's requests on both servers: one more each time.
    const countless = (a: Answer): Answer => ({
      ...a,
      headers: a.headers.filter(([name]) => name !== 'x-ratelimit-remaining'),
    });
    for (const [path, opts] of others) {
      const { fast, route, viaFast } = await both(path, opts);
      expect(viaFast, `${opts?.method ?? 'GET'} ${path}`).toBe(false);
      expect(countless(fast), `${opts?.method ?? 'GET'} ${path}`).toEqual(countless(route));
    }
  });
});

describe('the fast paths step aside', () => {
  const fastPath = { route: '/x', answer: () => 200 };
  const req = { method: 'GET', url: '/x' } as http.IncomingMessage;
  const res = { headersSent: false } as http.ServerResponse;
  const metrics = { httpAnswer: () => () => {} } as unknown as Parameters<FastPaths['start']>[0]['metrics'];
  const log = { level: 'silent', error: () => {} } as unknown as Parameters<FastPaths['start']>[0]['log'];
  const requests = new RequestLog(true);

  it('before the app has started them, and once it closes', () => {
    const paths = new FastPaths();
    paths.add(fastPath);
    expect(paths.handle(req, res)).toBe(false);
    paths.start({ log, metrics, requests });
    expect(paths.handle(req, res)).toBe(true);
    paths.close();
    expect(paths.handle(req, res)).toBe(false);
  });

  it('when one fails before sending anything: Fastify answers instead', () => {
    const paths = new FastPaths();
    paths.add({
      route: '/x',
      answer: () => {
        throw new Error('a bug');
      },
    });
    paths.start({ log, metrics, requests });
    expect(paths.handle(req, res)).toBe(false);
  });
});
