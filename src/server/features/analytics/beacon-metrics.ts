import type { AppMetrics } from '../../plugins/metrics.ts';

/**
 * Why a beacon was answered (always 204) but not counted: over the client's budget, the write
 * buffer full, its flush failed, unreadable or from another site, or skipped on purpose (bots,
 * Do Not Track, Global Privacy Control, prefetches).
 */
const beaconDropReasons = [
  'over-budget',
  'buffer-full',
  'write-failed',
  'invalid',
  'bot',
  'dnt',
  'gpc',
  'prefetch',
] as const;
export type BeaconDropReason = (typeof beaconDropReasons)[number];

export interface BeaconMetrics {
  /** Visits written to the store. */
  counted(n: number): void;
  dropped(reason: BeaconDropReason, n?: number): void;
}

declare module '../../plugins/metrics.ts' {
  interface FeatureMetrics {
    beacons: BeaconMetrics;
  }
}

/** The analytics feature's counters, on the app's registry. */
export function provideBeaconMetrics(metrics: AppMetrics): void {
  const counted = metrics.counter({ name: 'dh_beacons_counted_total', help: 'Visits written to the store.' });
  const dropped = metrics.counter({
    name: 'dh_beacons_dropped_total',
    help: 'Beacons answered but not counted, by reason.',
    labelNames: ['reason'],
  });
  // Every reason exists from the start at 0, so a rate() sees the first drop.
  for (const reason of beaconDropReasons) dropped.inc({ reason }, 0);
  metrics.provide('beacons', {
    counted: (n) => counted.inc(n),
    dropped: (reason, n = 1) => dropped.inc({ reason }, n),
  });
}
