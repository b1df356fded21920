import type { FormEvent } from 'react';
import { Field } from '../field.tsx';

/**
 * The composer: subject and Markdown body, and the writer's buttons (save and preview, a test to
 * oneself, send to all, start a new one); a viewer sees the text read-only and may only preview.
 * What may be sent is the server's call: its refusal shows under the body.
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
  hasBroadcast: boolean;
  sendRefused: boolean;
  onPreview: (event: FormEvent<HTMLFormElement>) => void;
  onTestSend: () => void;
  onSendToAll: () => void;
  onStartOver: () => void;
}) {
  const { writer, busy, subject, onSubject, subjectError, body, onBody, bodyError, hasBroadcast, sendRefused } = props;
  return (
    <>
      <p className="cs-muted">
        Write to every confirmed subscriber. The body is Markdown; any HTML in it shows as text. A broadcast may carry
        no Ethereum address but the official contract address, no invisible characters, links only to this site and the
        sites the content file lists, and images only from this site.
      </p>
      <form onSubmit={props.onPreview} noValidate>
        <Field
          id="bc-subject"
          label="Subject"
          value={subject}
          onChange={(e) => onSubject(e.target.value)}
          error={subjectError}
          maxLength={200}
          readOnly={!writer}
        />
        <div className="cs-field">
          <label htmlFor="bc-body">Message (Markdown)</label>
          <textarea
            id="bc-body"
            rows={12}
            value={body}
            onChange={(e) => onBody(e.target.value)}
            readOnly={!writer}
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
              Send a test to me
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
