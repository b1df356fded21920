import { countdownMessages } from '../../../content/messages/en/countdown.ts';

// The presale countdown's arithmetic, and its words from the message file, shared by the server
// render (React, through the SSR bundle) and the browser's ticking island, so the two can never
// disagree about what to say.

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

export const presaleOpenText = countdownMessages.open;

/**
 * The sentence the page shows and screen readers hear, to the minute (rounded up: "1 minute"
 * until it opens). It changes at most once a minute, which is how often the server re-renders
 * the page and the island's polite live region speaks.
 */
export function countdownSentence(opensAtMs: number, nowMs: number): string {
  const left = Math.ceil((opensAtMs - nowMs) / 60_000);
  if (!(left > 0)) return presaleOpenText;
  return countdownMessages.opensIn({
    days: Math.floor(left / 1440),
    hours: Math.floor((left % 1440) / 60),
    minutes: left % 60,
  });
}

/** Two digits for the clock face (days may have more). */
export const pad2 = (n: number): string => String(n).padStart(2, '0');

export const countdownUnits = ['days', 'hours', 'minutes', 'seconds'] as const;
