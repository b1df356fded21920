import { type AudienceQuery, daysInPeriod, presetDays } from '../../../shared/admin/audience.ts';
import { addDays, dayOf } from '../../lib/days.ts';

// The Audience screen's periods: a preset (ending today, UTC) or a custom range, and the period of
// the same length before it, which the report sets beside it.

export interface Period {
  from: string;
  to: string;
  days: number;
}

/** The period a query asks for (presets end today, UTC) and the one of the same length before it. */
export function resolvePeriod(query: AudienceQuery, now: Date): { period: Period; previous: Period } {
  const today = dayOf(now);
  let from: string;
  let to: string;
  if (query.period === 'custom') {
    // The schema has checked both are there, in order and at most MAX_PERIOD_DAYS apart.
    from = query.from ?? today;
    to = query.to ?? today;
  } else {
    to = today;
    from = addDays(today, 1 - presetDays[query.period]);
  }
  const days = daysInPeriod(from, to);
  return { period: { from, to, days }, previous: { from: addDays(from, -days), to: addDays(from, -1), days } };
}
