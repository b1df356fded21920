import { z } from 'zod/mini';
import { signupsByInviteSchema } from './referrals.ts';

// The operators' console, Audience screen: the period query and the report, shared by the console
// and the server's routes. Days are UTC calendar days, YYYY-MM-DD, inclusive at both ends.

export const audiencePresets = ['today', '7d', '30d', '90d', 'custom'] as const;
export type AudiencePreset = (typeof audiencePresets)[number];

/** Days in each preset's period, ending today. */
export const presetDays: Record<Exclude<AudiencePreset, 'custom'>, number> = {
  today: 1,
  '7d': 7,
  '30d': 30,
  '90d': 90,
};

/** The longest custom period. */
export const MAX_PERIOD_DAYS = 366;

const DAY_MS = 86_400_000;
const dayTime = (day: string): number => Date.parse(`${day}T00:00:00Z`);
/** A real calendar day written YYYY-MM-DD (not 2026-02-30). */
const isCalendarDay = (v: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(dayTime(v)) && new Date(dayTime(v)).toISOString().startsWith(v);
/** Days from `from` to `to`, both included. */
export const daysInPeriod = (from: string, to: string): number =>
  Math.round((dayTime(to) - dayTime(from)) / DAY_MS) + 1;

const day = (what: string) =>
  z.optional(
    z.string().check(z.refine(isCalendarDay, `${what} must be a date written YYYY-MM-DD, such as 2026-11-22.`)),
  );

export const audienceQuerySchema = z
  .object({
    period: z._default(z.enum(audiencePresets, { error: 'The period must be today, 7d, 30d, 90d or custom.' }), '7d'),
    from: day('The start date'),
    to: day('The end date'),
  })
  .check(
    z.refine((q) => q.period !== 'custom' || q.from !== undefined, {
      error: 'Choose a start date for a custom period.',
      path: ['from'],
    }),
    z.refine((q) => q.period !== 'custom' || q.to !== undefined, {
      error: 'Choose an end date for a custom period.',
      path: ['to'],
    }),
    z.refine((q) => !q.from || !q.to || !isCalendarDay(q.from) || !isCalendarDay(q.to) || q.from <= q.to, {
      error: 'The start date must be on or before the end date.',
      path: ['from'],
    }),
    z.refine(
      (q) =>
        !q.from ||
        !q.to ||
        !isCalendarDay(q.from) ||
        !isCalendarDay(q.to) ||
        q.from > q.to ||
        daysInPeriod(q.from, q.to) <= MAX_PERIOD_DAYS,
      { error: `A period can be at most ${MAX_PERIOD_DAYS} days long.`, path: ['to'] },
    ),
  );
export type AudienceQuery = z.output<typeof audienceQuerySchema>;

const periodSchema = z.object({ from: z.string(), to: z.string(), days: z.number() });

const totalsSchema = z.object({
  /** Daily unique visitors, summed over the days (a visitor counts once per day). */
  visitors: z.number(),
  views: z.number(),
  signups: z.number(),
  /** Sign-ups per visitor, 0 to 1 (0 when there were no visitors). */
  conversion: z.number(),
});

const countsSchema = { visitors: z.number(), views: z.number() };

export const audienceReportSchema = z.object({
  period: periodSchema,
  /** The period of the same length just before, for comparison. */
  previousPeriod: periodSchema,
  totals: totalsSchema,
  previousTotals: totalsSchema,
  /** One point per day of the period, days without visits included (as zeros). */
  series: z.array(z.object({ day: z.string(), ...countsSchema, signups: z.number() })),
  /** Countries by visitors, each with its top cities ("Unknown" when the place was not known). */
  countries: z.array(
    z.object({
      country: z.string(),
      ...countsSchema,
      cities: z.array(z.object({ city: z.string(), ...countsSchema })),
    }),
  ),
  pages: z.array(z.object({ path: z.string(), ...countsSchema })),
  /** Referrer hosts; "(direct)" for visits without one. */
  referrers: z.array(z.object({ host: z.string(), ...countsSchema })),
  /**
   * Per locale, every one the site speaks (zeros included), then any other a subscriber's row
   * holds: visits by the locale of the page (its URL's first segment; the root is English), and
   * sign-ups by the locale they signed up in (subscribers still on the list).
   */
  locales: z.array(z.object({ locale: z.string(), ...countsSchema, signups: z.number() })),
  /** The period's sign-ups that came through an invite link and those that did not, each with its confirmation rate. */
  invites: signupsByInviteSchema,
});
export type AudienceReport = z.output<typeof audienceReportSchema>;

export const LIVE_WINDOW_MINUTES = 30;

export const liveVisitorsSchema = z.object({
  /** Start of the window (now − 30 minutes). */
  since: z.string(),
  /** Distinct visitors seen in the window. */
  visitors: z.number(),
  views: z.number(),
});
export type LiveVisitors = z.output<typeof liveVisitorsSchema>;
