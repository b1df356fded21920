import { z } from 'zod/mini';

// The beacon's one message. The beacon itself has no dependencies (it only uses the type); the
// server parses every beacon with this schema.
export const visitBeaconSchema = z.object({
  /** Page path, e.g. "/". */
  p: z.string().check(z.maxLength(512)),
  /** document.referrer; the server keeps only its host. */
  r: z.optional(z.string().check(z.maxLength(2048))),
  /** IANA time zone from Intl, e.g. "Europe/Berlin". */
  tz: z.optional(z.string().check(z.maxLength(64))),
  /** navigator.language, e.g. "en-GB". */
  l: z.optional(z.string().check(z.maxLength(35))),
});

export type VisitBeacon = z.output<typeof visitBeaconSchema>;
