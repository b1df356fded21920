import type { CountdownMessages } from '../../shared/messages/countdown.ts';

// The presale countdown's arithmetic, and its words from the page locale's message file, shared by
// the server render (React, through the SSR bundle) and the browser's ticking island, so the two
// can never disagree about what to say. The words are passed in: the island loads only its own
// locale's file (islands/island-words.ts).

export interface Countdown {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/**
 * Time left until `opensAtMs`, rounded up to the whole second (so "0 s left" only ever means
 * "open"), or null once it is open.
 */
export function countdownAt(opensAtMs: number, nowMs: number): Countdown | null {
  const left = Math.ceil((opensAtMs - nowMs) / 1000);
  if (!(left > 0)) return null;
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  };
}

/**
 * The sentence the page shows and screen readers hear, to the minute (rounded up: "1 minute"
 * until it opens). It changes at most once a minute, which is how often the server re-renders
 * the page and the island's polite live region speaks.
 */
export function countdownSentence(words: CountdownMessages, opensAtMs: number, nowMs: number): string {
  const left = Math.ceil((opensAtMs - nowMs) / 60_000);
  if (!(left > 0)) return words.open;
  return words.opensIn({
    days: Math.floor(left / 1440),
    hours: Math.floor((left % 1440) / 60),
    minutes: left % 60,
  });
}

const clockFormats = new Map<string, Intl.NumberFormat>();

/**
 * Two digits at least for the clock face (days may have more), in the page language's own digits
 * (`Intl`, built into every browser: no library). One formatter per language, made once.
 */
export function clockDigits(tag: string, n: number): string {
  let format = clockFormats.get(tag);
  if (!format) {
    format = new Intl.NumberFormat(tag, { minimumIntegerDigits: 2, useGrouping: false });
    clockFormats.set(tag, format);
  }
  return format.format(n);
}

export const countdownUnits = ['days', 'hours', 'minutes', 'seconds'] as const;
