import { z } from 'zod/mini';
import { suppressionReasonLabels } from './suppressions.ts';

// Whether mail reaches one person, as their record in the console shows it (decision 0035's
// suppression list and bounce events, matched to the person by the keyed hash of their address):
// a standing suppression since when, why and heard from where, and the last bounce or complaint
// heard for their address. Codes travel; the words for them are here, once, for the console and for
// the server's sentences to an operator (the console's words are English, decision 0048).

export const mailStatusSchema = z.object({
  /** Their address's standing suppression, or null: mail to them goes out. */
  suppressed: z.nullable(
    z.object({
      since: z.string(),
      /** suppressionReasons' codes; any string, so a reason added later still reads. */
      reason: z.string(),
      /** Where it was heard: smtp, dsn, arf, postmark, mailgun, sendgrid, ses, console. */
      source: z.string(),
      /** The enhanced status or the provider's type ("5.1.1"); never the reply text. */
      detail: z.nullable(z.string()),
    }),
  ),
  /** The last bounce or complaint heard for their address, from any email, or null. */
  lastBounce: z.nullable(z.object({ at: z.string(), kind: z.string(), source: z.string() })),
});
export type MailStatus = z.output<typeof mailStatusSchema>;
export type StandingSuppression = NonNullable<MailStatus['suppressed']>;

const sourceWords: Record<string, string> = {
  smtp: 'the receiving mail server’s answer when the email was sent',
  dsn: 'a bounce report in the bounce mailbox',
  arf: 'a spam report (feedback loop) in the bounce mailbox',
  postmark: 'Postmark’s webhook',
  mailgun: 'Mailgun’s webhook',
  sendgrid: 'SendGrid’s webhook',
  ses: 'Amazon SES’s notification',
  console: 'an operator, in the console',
};

const kindWords: Record<string, string> = {
  hard: 'a hard bounce (the address does not exist)',
  soft: 'a soft bounce (a passing failure)',
  complaint: 'a complaint (marked as spam)',
  policy: 'a refusal by the receiver’s filter (policy or content)',
};

/** A suppression's reason in words (the code itself for one this build does not know). */
export const suppressionReasonText = (reason: string): string =>
  (suppressionReasonLabels as Record<string, string | undefined>)[reason] ?? reason;
/** Where a bounce, complaint or suppression was heard, in words. */
export const mailSourceText = (source: string): string => sourceWords[source] ?? source;
/** What kind of event was heard, in words. */
export const bounceKindText = (kind: string): string => kindWords[kind] ?? kind;

/** "2026-11-20 14:03 UTC": an ISO time as a sentence to an operator writes it. */
const utcMinute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Why nothing was sent to a suppressed person, in words (the resend's refusal). */
export function suppressedSentence(s: StandingSuppression): string {
  return [
    `Nothing was sent: mail to this address is suppressed since ${utcMinute(s.since)}`,
    ` (${suppressionReasonText(s.reason)}${s.detail ? `, reported as ${s.detail}` : ''}; heard from ${mailSourceText(s.source)}).`,
    ' An owner can lift the suppression on the Suppressions screen once the address works again.',
  ].join('');
}
