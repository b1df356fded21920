import { generateKeyPairSync, sign } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan, parseWebhookJson, tooLargeWords, webhookLimits } from './webhook-json.ts';
import { MalformedWebhook, normalisedEcdsaNonce } from './webhooks.ts';

/** The nesting of a parsed value, counted as the scanner counts it (a scalar is 0, `[]` is 1). */
const depthOf = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

describe('the depth check over raw JSON text', () => {
  it('agrees with the parsed value for any JSON, strings full of brackets and escapes included', () => {
    const tricky = fc.constantFrom('[', ']', '{', '}', '\\', '"', '\\"', '"[', '\\\\', '\u2028');
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 3 }),
        fc.stringMatching(/^[\\"[\]{}a]*$/),
        tricky,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.oneof(fc.string(), tricky), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 8 }), fc.boolean(), (v, max, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined) ?? 'null';
        expect(nestedDeeperThan(text, max)).toBe(depthOf(JSON.parse(text)) > max);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a megabyte of nesting in words, before any parse, in milliseconds', () => {
    const deep = '['.repeat(512 * 1024) + ']'.repeat(512 * 1024);
    expect(() => parseWebhookJson(deep, 8)).toThrow(MalformedWebhook);
    expect(() => parseWebhookJson(deep, 8)).toThrow(/nests deeper than 8 levels/);
    // It stops at the first bracket past the limit: the rest of the text is never looked at.
    expect(nestedDeeperThan(`${'['.repeat(9)}${'x'.repeat(10_000_000)}`, 8)).toBe(true);
  });

  it('refuses text that is not JSON, and prototype keys, in words', () => {
    expect(() => parseWebhookJson('{not json', 8)).toThrow(/not JSON/);
    expect(() => parseWebhookJson('{"__proto__":{"admin":true}}', 8)).toThrow(MalformedWebhook);
    expect(() => parseWebhookJson('{"constructor":{"prototype":{"x":1}}}', 8)).toThrow(MalformedWebhook);
    expect(parseWebhookJson('{"a":[1,{"b":"]]]]"}]}', 3)).toEqual({ a: [1, { b: ']]]]' }] });
  });
});

describe('the replay key of an ECDSA P-256 signature', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const der = sign('sha256', Buffer.from('1763726400[]'), { key: privateKey, dsaEncoding: 'der' });

  it('is the same for (r, s) and (r, n − s), and for no other signature', () => {
    const parsed = p256.Signature.fromBytes(der, 'der');
    const twin = new p256.Signature(parsed.r, p256.Point.Fn.ORDER - parsed.s).toBytes('der');
    expect(normalisedEcdsaNonce(twin)).toBe(normalisedEcdsaNonce(der));
    const other = sign('sha256', Buffer.from('1763726400[]'), { key: privateKey, dsaEncoding: 'der' });
    expect(normalisedEcdsaNonce(other)).not.toBe(normalisedEcdsaNonce(der));
  });

  it('is null for bytes that are not one strict DER signature', () => {
    expect(normalisedEcdsaNonce(Buffer.concat([der, Buffer.from([0])]))).toBeNull();
    expect(normalisedEcdsaNonce(Buffer.from('not a signature'))).toBeNull();
    expect(normalisedEcdsaNonce(new Uint8Array(0))).toBeNull();
  });
});

describe('tooLargeWords', () => {
  it("names the route's own limit in the sizes people read", () => {
    expect(tooLargeWords(webhookLimits.sendgrid.bodyBytes)).toContain('(1 MB at most)');
    expect(tooLargeWords(webhookLimits.ses.bodyBytes)).toContain('(520 KB at most)');
    expect(tooLargeWords(webhookLimits.postmark.bodyBytes)).toContain('(256 KB at most)');
    expect(tooLargeWords(webhookLimits.mailgun.bodyBytes)).toContain('(64 KB at most)');
    expect(tooLargeWords(3 * 1024 * 1024)).toContain('(3 MB at most)');
  });
});
