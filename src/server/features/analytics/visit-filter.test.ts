import { describe, expect, it } from 'vitest';
import { BotVerdicts, skipReason } from './visit-filter.ts';

const chrome =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('skipReason', () => {
  it('counts an ordinary browser', () => {
    expect(skipReason({ 'user-agent': chrome })).toBeNull();
  });
  it.each([
    [{ 'user-agent': chrome, 'sec-gpc': '1' }, 'gpc'],
    [{ 'user-agent': chrome, dnt: '1' }, 'dnt'],
    [{ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, 'bot'],
    [{ 'user-agent': 'curl/8.5.0' }, 'bot'],
    [{ 'user-agent': 'HeadlessChrome/120' }, 'bot'],
    [{}, 'bot'],
    [{ 'user-agent': chrome, 'sec-purpose': 'prefetch;prerender' }, 'prefetch'],
    [{ 'user-agent': chrome, purpose: 'prefetch' }, 'prefetch'],
  ])('skips %j as %s', (headers, reason) => {
    expect(skipReason(headers)).toBe(reason);
  });
  it('counts DNT: 0 and Sec-GPC absent', () => {
    expect(skipReason({ 'user-agent': chrome, dnt: '0' })).toBeNull();
  });
});

describe('BotVerdicts', () => {
  it('keeps its verdicts within maxBytes and counts each one it lets go', () => {
    let evicted = 0;
    const verdicts = new BotVerdicts({ maxBytes: 10_000, onEvict: () => evicted++ });
    for (let i = 0; i < 1000; i++) expect(verdicts.isBot(`${chrome} Build/${i}`)).toBe(false);
    expect(verdicts.bytes).toBeLessThanOrEqual(10_000);
    expect(evicted).toBeGreaterThan(900);
    expect(verdicts.isBot('Googlebot/2.1')).toBe(true);
  });

  it('judges an absurdly long user agent without keeping it', () => {
    const verdicts = new BotVerdicts({ maxBytes: 10_000 });
    expect(verdicts.isBot(`${chrome} ${'x'.repeat(8000)}`)).toBe(false);
    expect(verdicts.bytes).toBe(0);
  });
});
