import { brotliDecompressSync, crc32, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { memoryFile } from './memory-file.ts';
import { compressed, filled, sendSlottedFile, slottedFile, type SlottedFile } from './slotted-file.ts';

// The spliced forms of a slotted page must decompress to the page with the value in it, byte for
// byte, whatever the page and the value; and cost about what the page compressed whole costs.

const MARK = 'MARKmarkMARKmarkMARK_-';
const code = fc.string({
  unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  minLength: 22,
  maxLength: 22,
});

async function served(file: SlottedFile, value: string, acceptEncoding: string) {
  const app = Fastify();
  app.get('/', (request, reply) => sendSlottedFile(request, reply, file, value, { cacheControl: 'private, no-store' }));
  const res = await app.inject({ url: '/', headers: { 'accept-encoding': acceptEncoding } });
  await app.close();
  return res;
}

const decoded = (encoding: unknown, bytes: Buffer): string =>
  (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString();

describe('a page with a slot, compressed once and spliced per value', () => {
  it('gives back the page with the value, in brotli, gzip and as is, for any page and value', async () => {
    // A page: any text (Unicode, repeats, the slot's neighbours alike) with the marker 1–3 times.
    const text = fc.string({ unit: 'grapheme', maxLength: 300 });
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 2, maxLength: 4 }), code, async (pieces, value) => {
        const page = pieces.map((p) => `${p}<p>${p}</p>`).join(`<input value="${MARK}">`);
        const file = slottedFile(page, MARK, 'text/html; charset=utf-8');
        await compressed(file);
        const want = page.split(MARK).join(value);
        expect(filled(file, value).toString()).toBe(want);
        for (const accept of ['br', 'gzip', 'identity']) {
          const res = await served(file, value, accept);
          expect(decoded(res.headers['content-encoding'], res.rawPayload)).toBe(want);
        }
        // Both forms are offered for pages like these (the check at build never refused one).
        expect(file.br).toBeDefined();
        expect(file.gzip).toBeDefined();
      }),
      { numRuns: 40 },
    );
  });

  it("joins gzip's checksum from the parts' (no checksum over the page per request)", async () => {
    const page = `${'<p>Diamond Hand</p>'.repeat(400)}${MARK}${'<i>x</i>'.repeat(300)}${MARK}tail`;
    const file = slottedFile(page, MARK, 'text/html');
    await compressed(file);
    const res = await served(file, 'A'.repeat(22), 'gzip');
    const trailer = res.rawPayload.subarray(-8);
    const want = Buffer.from(page.split(MARK).join('A'.repeat(22)));
    expect(trailer.readUInt32LE(0)).toBe(crc32(want));
    expect(trailer.readUInt32LE(4)).toBe(want.length);
  });

  it('costs about the bytes of the page compressed whole', async () => {
    const page = Array.from({ length: 200 }, (_, i) => `<li class="item">Question ${i}: what is DH?</li>`).join('');
    const file = slottedFile(
      `${page}<p data-x="${MARK}">${page.slice(0, 3000)}<input value="${MARK}"/>end`,
      MARK,
      'text/html',
    );
    await compressed(file);
    const value = 'Zz0_Zz0_Zz0_Zz0_Zz0_-9';
    const whole = memoryFile(filled(file, value).toString(), 'text/html');
    const br = await served(file, value, 'br');
    const gz = await served(file, value, 'gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.rawPayload.length).toBeLessThan(whole.br.length + 120);
    expect(gz.rawPayload.length).toBeLessThan(whole.gzip.length + 120);
  });
});
