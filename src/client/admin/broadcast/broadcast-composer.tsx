import type { FormEvent } from 'react';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales, type Locale } from '../../../shared/locales.ts';
import { unreviewedLocales } from '../../../../content/messages/locale-info.ts';
import { localeEnglishNames, namesOf } from '../../../shared/admin/locale-names.ts';
import { Field } from '../console/field.tsx';
import type { EditorVersions } from './use-broadcast-editor.ts';

const written = (v: EditorVersions[Locale]) => v.subject.trim() !== '' || v.body.trim() !== '';

/**
 * The composer: one version per locale (a select picks the one on screen; preview and a test send
 * show what that locale's subscribers get), whether English goes to the locales without one, the
 * subject and Markdown body, and the writer's buttons (save and preview, a test to oneself, send
 * to all, start a new one); a viewer sees the text read-only and may only preview. What may be
 * sent is the server's call: its refusal (for every version) shows under the body.
 */
export function BroadcastComposer(props: {
  writer: boolean;
  busy: boolean;
  subject: string;
  onSubject: (subject: string) => void;
  subjectError: string | undefined;
  body: string;
  onBody: (body: string) => void;
  bodyError: string | undefined;
  versions: EditorVersions;
  locale: Locale;
  onLocale: (locale: Locale) => void;
  englishFallback: boolean;
  onEnglishFallback: (on: boolean) => void;
  hasBroadcast: boolean;
  sendRefused: boolean;
  onPreview: (event: FormEvent<HTMLFormElement>) => void;
  onTestSend: () => void;
  onSendToAll: () => void;
  onStartOver: () => void;
}) {
  const { writer, busy, subject, onSubject, subjectError, body, onBody, bodyError, hasBroadcast, sendRefused } = props;
  const { versions, locale, englishFallback } = props;
  const drafts = unreviewedLocales();
  return (
    <>
      <p className="cs-muted">
        Write to every confirmed subscriber. The body is Markdown; any HTML in it shows as text. A broadcast may carry
        no Ethereum address but the official contract address, no invisible characters, links only to this site and the
        sites the content file lists, and images only from this site.
      </p>
      <p className="cs-muted">
        Each subscriber gets the version in the language they signed up in
        {englishFallback ? ', or the English one when their language has none' : ''}. Every version is checked, and an
        approval covers all of them: changing any version after it voids it.
        {drafts.length > 0
          ? ` Draft translations, not reviewed by a native speaker: ${namesOf(drafts)} (the site’s own words in these languages; the emails’ footers use them too).`
          : ''}
      </p>
      <form onSubmit={props.onPreview} noValidate>
        <div className="cs-field">
          <label htmlFor="bc-locale">Version</label>
          <select
            id="bc-locale"
            value={locale}
            onChange={(e) => {
              const picked = locales.find((l) => l === e.target.value);
              if (picked) props.onLocale(picked);
            }}
          >
            {locales.map((l) => (
              <option key={l} value={l}>
                {localeEnglishNames[l]}
                {l === 'en'
                  ? ''
                  : written(versions[l])
                    ? ' (written)'
                    : englishFallback
                      ? ' (gets English)'
                      : ' (missing)'}
              </option>
            ))}
          </select>
        </div>
        <div className="cs-field">
          <label>
            <input
              type="checkbox"
              checked={englishFallback}
              disabled={!writer}
              onChange={(e) => props.onEnglishFallback(e.target.checked)}
            />{' '}
            Send the English version to subscribers whose language has no version of its own
          </label>
        </div>
        <Field
          id="bc-subject"
          label="Subject"
          value={subject}
          onChange={(e) => onSubject(e.target.value)}
          error={subjectError}
          maxLength={200}
          readOnly={!writer}
          // The version's own language and direction, so Arabic is typed and read right to left.
          lang={localeInfo[locale].tag}
          dir={localeInfo[locale].dir}
        />
        <div className="cs-field">
          <label htmlFor="bc-body">Message (Markdown)</label>
          <textarea
            id="bc-body"
            rows={12}
            value={body}
            onChange={(e) => onBody(e.target.value)}
            readOnly={!writer}
            lang={localeInfo[locale].tag}
            dir={localeInfo[locale].dir}
            aria-invalid={bodyError ? true : undefined}
            aria-describedby={bodyError ? 'bc-body-error' : undefined}
          />
          {bodyError ? (
            <p className="cs-field-error" id="bc-body-error" role="alert">
              {bodyError}
            </p>
          ) : null}
        </div>
        {writer ? (
          <div className="cs-actions">
            <button type="submit" disabled={busy}>
              Save and preview
            </button>
            <button type="button" className="cs-secondary" disabled={busy} onClick={props.onTestSend}>
              Send a test to me ({localeEnglishNames[locale]} version)
            </button>
            <button type="button" className="cs-danger" disabled={busy || sendRefused} onClick={props.onSendToAll}>
              Send to all confirmed subscribers
            </button>
            {hasBroadcast ? (
              <button type="button" className="cs-secondary" disabled={busy} onClick={props.onStartOver}>
                Write a new broadcast
              </button>
            ) : null}
          </div>
        ) : (
          <div className="cs-actions">
            <button type="submit" disabled={busy || !hasBroadcast}>
              Preview
            </button>
          </div>
        )}
      </form>
    </>
  );
}
