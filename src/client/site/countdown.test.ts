import { describe, expect, it } from 'vitest';
import { countdownMessages as english } from '../../../content/messages/en/countdown.ts';
import { countdownMessages as arabic } from '../../../content/messages/ar/countdown.ts';
import { clockDigits, countdownAt, countdownSentence as sentenceIn } from './countdown.ts';

const countdownSentence = (opensAtMs: number, nowMs: number) => sentenceIn(english, opensAtMs, nowMs);
const presaleOpenText = english.open;

const opensAt = Date.parse('2026-12-01T18:00:00Z');
const before = (ms: number) => opensAt - ms;
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('countdownAt', () => {
  it('splits what is left into days, hours, minutes and seconds', () => {
    expect(countdownAt(opensAt, before(12 * D + 3 * H + 4 * M + 5 * S))).toEqual({
      days: 12,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
  });

  it('rounds up to the second, so it never shows zero before the moment', () => {
    expect(countdownAt(opensAt, before(1))).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(countdownAt(opensAt, before(1500))).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 2 });
  });

  it('is null at the moment and after it', () => {
    expect(countdownAt(opensAt, opensAt)).toBeNull();
    expect(countdownAt(opensAt, opensAt + D)).toBeNull();
  });
});

describe('countdownSentence', () => {
  it('reads to the minute, rounded up, naming only the units that are not zero', () => {
    expect(countdownSentence(opensAt, before(12 * D))).toBe('Presale opens in 12 days');
    expect(countdownSentence(opensAt, before(12 * D + 3 * H + 4 * M))).toBe(
      'Presale opens in 12 days, 3 hours and 4 minutes',
    );
    expect(countdownSentence(opensAt, before(12 * D + 3 * H + 3 * M + 1))).toBe(
      'Presale opens in 12 days, 3 hours and 4 minutes',
    );
    expect(countdownSentence(opensAt, before(D + M))).toBe('Presale opens in 1 day and 1 minute');
    expect(countdownSentence(opensAt, before(H))).toBe('Presale opens in 1 hour');
    expect(countdownSentence(opensAt, before(1))).toBe('Presale opens in 1 minute');
  });

  it('changes at most once a minute', () => {
    const seen = new Set<string>();
    for (let t = before(10 * M); t < opensAt; t += S) seen.add(countdownSentence(opensAt, t));
    expect(seen.size).toBe(10);
  });

  it('says the presale is open at the moment and after it', () => {
    expect(countdownSentence(opensAt, opensAt)).toBe(presaleOpenText);
    expect(countdownSentence(opensAt, opensAt + 5 * D)).toBe(presaleOpenText);
  });
});

describe('the countdown in another locale', () => {
  it("says the page's own words, and writes the clock in the language's digits", () => {
    expect(sentenceIn(arabic, opensAt, before(2 * D))).toBe('يبدأ البيع المسبق بعد يومين');
    expect(sentenceIn(arabic, opensAt, opensAt)).toBe(arabic.open);
    expect(clockDigits('en', 7)).toBe('07');
    expect(clockDigits('en', 123)).toBe('123');
    expect(clockDigits('ar', 7)).toBe(new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 }).format(7));
  });
});
