import { describe, expect, it } from 'vitest';
import { skipReason } from './visit-filter.ts';

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
