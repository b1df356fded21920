import { Fragment } from 'react';
import type { SubscriberDetail } from '../../../shared/admin/subscribers.ts';
import { bounceKindText, mailSourceText, suppressionReasonText } from '../../../shared/admin/mail-status.ts';
import { formatTime } from '../console/format.ts';
import { languageName } from '../../../shared/admin/locale-names.ts';
import { statusLabel } from './subscriber-table.tsx';
import { signupFields, type SignupField } from '../../../shared/signup-schema.ts';
import { signupMessages } from '../../../../content/messages/en/signup.ts';

/** Fields of the form this record shows in places of their own (the name heads the page). */
const placedFields: readonly SignupField[] = ['name', 'email', 'comment'];
/** What else the person typed: every other field of the sign-up form, under its English label. */
const otherFields = signupFields.filter((f) => !placedFields.includes(f));

const place = (p: { country: string | null; city: string | null; region?: string | null }): string =>
  [p.city, p.region, p.country].filter(Boolean).join(', ') || 'Unknown';

/**
 * Whether mail reaches them: suppressed since when, why and heard from where, or not; and the last
 * bounce or complaint heard for their address (the server matched both by its keyed hash).
 */
function MailStatusFacts({ mail }: { mail: SubscriberDetail['mail'] }) {
  const s = mail.suppressed;
  const last = mail.lastBounce;
  return (
    <dl className="cs-facts" data-testid="subscriber-mail">
      <dt>Mail to them</dt>
      <dd>
        {s ? (
          <>
            <strong>Suppressed since {formatTime(s.since)}</strong>: {suppressionReasonText(s.reason)}
            {s.detail ? `, reported as ${s.detail}` : ''}, heard from {mailSourceText(s.source)}. Nothing is sent to
            this address, a resend included, until an owner lifts the suppression on the Suppressions screen.
          </>
        ) : (
          'Not suppressed: emails to them go out.'
        )}
      </dd>
      <dt>Last bounce or complaint</dt>
      <dd>
        {last
          ? `${bounceKindText(last.kind)}, ${formatTime(last.at)}, heard from ${mailSourceText(last.source)}.`
          : 'None heard.'}
      </dd>
    </dl>
  );
}

/** What is on record about one person: details, the day's read allowance, consent and emails. */
export function SubscriberRecord({ person }: { person: SubscriberDetail }) {
  return (
    <>
      <dl className="cs-facts">
        <dt>Email</dt>
        <dd>{person.email}</dd>
        <dt>Status</dt>
        <dd>{statusLabel[person.status]}</dd>
        <dt>Signed up</dt>
        <dd>{formatTime(person.createdAt)}</dd>
        {person.confirmedAt ? (
          <>
            <dt>Confirmed</dt>
            <dd>{formatTime(person.confirmedAt)}</dd>
          </>
        ) : null}
        {person.unsubscribedAt ? (
          <>
            <dt>Unsubscribed</dt>
            <dd>{formatTime(person.unsubscribedAt)}</dd>
          </>
        ) : null}
        <dt>Comment</dt>
        <dd className="cs-prewrap">{person.comment || '—'}</dd>
        {otherFields.map((f) => (
          <Fragment key={f}>
            <dt>{signupMessages.labels[f]}</dt>
            <dd>{person[f] || '—'}</dd>
          </Fragment>
        ))}
        <dt>Place (from the IP address, which is not kept)</dt>
        <dd>{place(person.location)}</dd>
        <dt>Language (their emails are written in it)</dt>
        <dd>{languageName(person.locale)}</dd>
      </dl>
      <p className="cs-hint">
        Opening this record was written in the audit log. You have read {person.reads.today} personal record
        {person.reads.today === 1 ? '' : 's'} today
        {person.reads.today > person.reads.allowance
          ? `, past your daily allowance of ${person.reads.allowance}: each further one asks for a code.`
          : ` of your daily allowance of ${person.reads.allowance}.`}
      </p>
      <h3>Consent</h3>
      <p>
        Given {formatTime(person.consent.at)} on the page {person.consent.page}, wording version{' '}
        {person.consent.version}:
      </p>
      <blockquote className="cs-quote">
        {person.consent.text ?? 'The wording of this version was not recorded.'}
      </blockquote>
      <h3>Mail status</h3>
      <MailStatusFacts mail={person.mail} />
      <h3>Emails</h3>
      {person.emails.length === 0 ? (
        <p>None.</p>
      ) : (
        <table className="cs-table">
          <caption className="cs-visually-hidden">Emails to this person</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Status</th>
              <th scope="col">Queued</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {person.emails.map((e) => (
              <tr key={e.id}>
                <td data-label="Email">{e.kind}</td>
                <td data-label="Status">
                  {e.status === 'pending' ? 'queued' : e.status}
                  {e.attempts > 1 ? ` (${e.attempts} attempts)` : ''}
                  {e.lastError ? ` — ${e.lastError}` : ''}
                </td>
                <td data-label="Queued">{formatTime(e.createdAt)}</td>
                <td data-label="Sent">{e.sentAt ? formatTime(e.sentAt) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
