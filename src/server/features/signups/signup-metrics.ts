import type { AppMetrics } from '../../plugins/metrics.ts';

/** How an accepted sign-up landed: a new person, someone already on the list, or someone back. */
type SignupOutcome = 'created' | 'updated' | 'resubscribed';
/** A sign-up answered as a success but not stored: a bot caught by a trap. */
type SignupTrap = 'honeypot' | 'too-fast';

interface SignupMetrics {
  accepted(outcome: SignupOutcome): void;
  trapped(trap: SignupTrap): void;
}

declare module '../../plugins/metrics.ts' {
  interface FeatureMetrics {
    signups: SignupMetrics;
  }
}

/** The sign-up feature's counters, on the app's registry. */
export function provideSignupMetrics(metrics: AppMetrics): void {
  const accepted = metrics.counter({
    name: 'dh_signups_total',
    help: 'Sign-ups accepted and stored: created (a new person), updated (already on the list), resubscribed.',
    labelNames: ['outcome'],
  });
  const trapped = metrics.counter({
    name: 'dh_signups_trapped_total',
    help: 'Sign-ups answered as a success but not stored, caught by a bot trap.',
    labelNames: ['trap'],
  });
  // Every series of a fixed set exists from the start at 0, so a rate() sees the first one.
  for (const outcome of ['created', 'updated', 'resubscribed'] as const) accepted.inc({ outcome }, 0);
  for (const trap of ['honeypot', 'too-fast'] as const) trapped.inc({ trap }, 0);
  metrics.provide('signups', {
    accepted: (outcome) => accepted.inc({ outcome }),
    trapped: (trap) => trapped.inc({ trap }),
  });
}
