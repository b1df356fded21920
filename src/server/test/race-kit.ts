import { expect } from 'vitest';
import type { RawResponse } from '../../../bench/lib/http.ts';
import type { Dialect } from '../store/database.ts';
import { testRedisUrl } from './test-redis.ts';
import { testPostgresUrl } from './test-store.ts';

// What the race tests of the limits share (docs/decisions/0063): where each race runs, and the one
// assertion they make of a burst's answers.

/**
 * What every race's servers run with, beside their own settings. The overload guard is off: on a
 * busy two-core machine a fresh server's event loop lags past its threshold and a burst is shed
 * with 503 "very busy", which is not the limit under test. Redis gets two seconds, not 200 ms: a
 * burst of 60 (and 60 password hashes) on two cores can keep an answer past 200 ms, and a count
 * taken in Redis but answered too late errs strict, so fewer than the limit would pass. The race
 * is about the count being taken atomically, which a longer wait does not change.
 */
export const raceServerEnv = {
  OVERLOAD_HEAP_MB: '0',
  OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
  REDIS_COMMAND_TIMEOUT_MS: '2000',
} as const;

/** How many requests each race fires at once: well past every limit it tests. */
export const BURST = 60;

export interface RaceTarget {
  label: string;
  dialect: Dialect;
  instances: number;
  /** Why it is skipped here, or null. */
  skip: string | null;
}

/** One instance on SQLite; two instances on one PostgreSQL schema and one Redis, when both are set. */
export const raceTargets: RaceTarget[] = [
  { label: 'one instance on SQLite', dialect: 'sqlite', instances: 1, skip: null },
  {
    label: 'two instances on one PostgreSQL and one Redis',
    dialect: 'postgres',
    instances: 2,
    skip: testPostgresUrl && testRedisUrl ? null : 'skipped: set TEST_POSTGRES_URL and TEST_REDIS_URL to run',
  },
];

/** A describe block's name for `target`, with why it is skipped when it is. */
export const raceName = (what: string, target: RaceTarget): string =>
  `${what} under a burst of ${BURST}: ${target.label}${target.skip ? ` (${target.skip})` : ''}`;

/** Exactly `expected` answers of each status; a failure shows the first body of each status. */
export function expectTally(answers: RawResponse[], expected: Record<number, number>): void {
  const counts: Record<number, number> = {};
  const firstBodies: Record<number, string> = {};
  for (const a of answers) {
    firstBodies[a.status] ??= a.body.toString().slice(0, 300);
    counts[a.status] = (counts[a.status] ?? 0) + 1;
  }
  expect(counts, JSON.stringify(firstBodies)).toEqual(expected);
}
