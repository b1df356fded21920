import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { trustProxyFn, type TrustProxy } from './client-address.ts';

// app.ts hands Fastify the compiled trust function instead of the option itself: it must name the
// same client as Fastify did with the option as it was, for every kind of TRUST_PROXY.

/** How app.ts handed TRUST_PROXY to Fastify before: a hop count as a function, the rest as they are. */
const asBefore = (v: TrustProxy) => (typeof v === 'number' ? (_address: string, hop: number) => hop < v : v);

const options: TrustProxy[] = [false, true, 1, 2, '127.0.0.1', '10.0.0.0/8, 127.0.0.1', '192.0.2.1'];
const forwarded = [
  undefined,
  '203.0.113.9',
  '203.0.113.9, 10.1.2.3',
  '198.51.100.1, 203.0.113.9, 127.0.0.1',
  'nonsense',
];

describe('the client address', () => {
  it.each(options)('TRUST_PROXY=%s: what Fastify named before and now agree', async (option) => {
    const seen = async (trustProxy: ReturnType<typeof asBefore> | ReturnType<typeof trustProxyFn>) => {
      const app = Fastify({ trustProxy });
      app.get('/', (request) => ({ ip: request.ip }));
      const answers = [];
      for (const xff of forwarded) {
        const res = await app.inject({ url: '/', headers: xff === undefined ? {} : { 'x-forwarded-for': xff } });
        answers.push(res.json<{ ip: string }>());
      }
      await app.close();
      return answers;
    };
    const before = await seen(asBefore(option));
    const now = await seen(trustProxyFn(option));
    expect(now.map((a) => a.ip)).toEqual(before.map((a) => a.ip));
    // Not a test of nothing: with a trusted proxy, the forwarded client is named.
    if (option === true) expect(before[1]?.ip).toBe('203.0.113.9');
    if (option === false) expect(before[1]?.ip).toBe('127.0.0.1');
  });
});
