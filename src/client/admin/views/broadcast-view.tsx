import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  broadcastDraftSchema,
  broadcastListSchema,
  broadcastPreviewSchema,
  broadcastSchema,
  testSentSchema,
  type Broadcast,
  type BroadcastPreview,
} from '../../../shared/admin/broadcast-schema.ts';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import { BACKGROUND_HEADER } from '../../../shared/admin/sign-in-schema.ts';
import { apiGet, apiSend } from '../../lib/http.ts';
import { useApiData, useConsole } from '../console-context.tsx';
import { Field, Notice } from '../field.tsx';
import { formatTime } from './format.ts';

const POLL_MS = 2000;
const live = (b: Broadcast | null) => b?.state === 'sending' || b?.state === 'paused';

const eta = (seconds: number | null): string => {
  if (seconds === null) return '—';
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `about ${minutes} min` : `about ${Math.round(minutes / 6) / 10} h`;
};

/**
 * The launch broadcast: write a subject and a Markdown body, preview it (HTML and text), send a
 * test to yourself, then send it to every confirmed subscriber (with a fresh code) and follow it.
 * Whether it may go out is decided by the server (the address guard); its sentence shows here.
 */
export function BroadcastView() {
  const { withFreshProof } = useConsole();
  const read = useApiData();
  const [broadcast, setBroadcast] = useState<Broadcast | null>(null);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ subject?: string; body?: string }>({});
  const [preview, setPreview] = useState<BroadcastPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A broadcast still going (sent from another tab, or before a reload) is shown at once.
  useEffect(() => {
    void (async () => {
      const list = read(await apiGet(adminApiPaths.broadcasts, broadcastListSchema)).data;
      const going = list?.broadcasts.find((b) => b.state === 'sending' || b.state === 'paused');
      if (!going) return;
      const one = read(await apiGet(withId(adminApiPaths.broadcast, going.id), broadcastSchema)).data;
      if (one) setBroadcast(one);
    })();
  }, [read]);

  // The view polling on its own: marked as background, so it never keeps the session alive.
  const refresh = useCallback(async (id: string) => {
    const result = await apiGet(withId(adminApiPaths.broadcast, id), broadcastSchema, {}, { [BACKGROUND_HEADER]: '1' });
    if (result.ok) setBroadcast(result.data);
  }, []);

  // Live progress: polled while the broadcast is sending or paused.
  const liveId = live(broadcast) ? broadcast?.id : undefined;
  useEffect(() => {
    if (!liveId) return;
    const timer = setInterval(() => void refresh(liveId), POLL_MS);
    return () => clearInterval(timer);
  }, [liveId, refresh]);

  /** Saves the draft (creating it the first time); returns it, or null with the errors shown. */
  async function save(): Promise<Broadcast | null> {
    const checked = broadcastDraftSchema.safeParse({ subject, body });
    if (!checked.success) {
      const errs: { subject?: string; body?: string } = {};
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if (field === 'subject' || field === 'body') errs[field] ??= issue.message;
      }
      setFieldErrors(errs);
      return null;
    }
    setFieldErrors({});
    const draftId = broadcast?.state === 'draft' ? broadcast.id : null;
    const result = await apiSend('POST', draftId ? withId(adminApiPaths.broadcast, draftId) : adminApiPaths.broadcasts, checked.data, broadcastSchema);
    const { data, error: failed } = read(result);
    setError(failed);
    if (data) setBroadcast(data);
    return data;
  }

  async function onPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setStatus(null);
    const saved = await save();
    if (saved) {
      const { data, error: failed } = read(await apiGet(withId(adminApiPaths.broadcastPreview, saved.id), broadcastPreviewSchema));
      setError(failed);
      setPreview(data);
    }
    setBusy(false);
  }

  async function testSend() {
    setBusy(true);
    const saved = await save();
    if (saved) {
      const { data, error: failed } = read(await apiSend('POST', withId(adminApiPaths.broadcastTest, saved.id), {}, testSentSchema));
      setError(failed);
      if (data) setStatus(`A test was sent to ${data.sentTo}.`);
    }
    setBusy(false);
  }

  async function sendToAll() {
    setBusy(true);
    const saved = await save();
    if (saved && !saved.refusal) {
      const result = await withFreshProof(() => apiSend('POST', withId(adminApiPaths.broadcastSend, saved.id), {}, broadcastSchema));
      if (result.ok) {
        setBroadcast(result.data);
        setPreview(null);
        setStatus(`Sending to ${result.data.progress.recipients} confirmed subscribers.`);
      } else if (result.error.code !== 'fresh_proof_required') setError(read(result).error);
    }
    setBusy(false);
  }

  async function change(path: string) {
    if (!broadcast) return;
    const { data, error: failed } = read(await apiSend('POST', withId(path, broadcast.id), {}, broadcastSchema));
    setError(failed);
    if (data) setBroadcast(data);
  }

  function startOver() {
    setBroadcast(null);
    setPreview(null);
    setSubject('');
    setBody('');
    setStatus(null);
    setError(null);
  }

  const refusal = broadcast?.state === 'draft' ? broadcast.refusal : null;
  const bodyError = fieldErrors.body ?? refusal ?? undefined;

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Broadcast</h1>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{status}</Notice>
      {broadcast && broadcast.state !== 'draft' ? (
        <Progress broadcast={broadcast} onChange={(path) => void change(path)} onNew={startOver} />
      ) : (
        <>
          <p className="cs-muted">
            Write to every confirmed subscriber. The body is Markdown; any HTML in it shows as text. A broadcast may carry no Ethereum
            address but the official contract address, no invisible characters, links only to this site and the sites the content file
            lists, and images only from this site.
          </p>
          <form onSubmit={(e) => void onPreview(e)} noValidate>
            <Field id="bc-subject" label="Subject" value={subject} onChange={(e) => setSubject(e.target.value)} error={fieldErrors.subject} maxLength={200} />
            <div className="cs-field">
              <label htmlFor="bc-body">Message (Markdown)</label>
              <textarea
                id="bc-body"
                rows={12}
                value={body}
                onChange={(e) => setBody(e.target.value)}
                aria-invalid={bodyError ? true : undefined}
                aria-describedby={bodyError ? 'bc-body-error' : undefined}
              />
              {bodyError ? (
                <p className="cs-field-error" id="bc-body-error" role="alert">
                  {bodyError}
                </p>
              ) : null}
            </div>
            <div className="cs-actions">
              <button type="submit" disabled={busy}>
                Save and preview
              </button>
              <button type="button" className="cs-secondary" disabled={busy} onClick={() => void testSend()}>
                Send a test to me
              </button>
              <button type="button" className="cs-danger" disabled={busy || Boolean(refusal)} onClick={() => void sendToAll()}>
                Send to all confirmed subscribers
              </button>
            </div>
          </form>
          {preview ? (
            <div className="cs-preview" aria-label="Preview">
              <h2>Preview: {preview.subject}</h2>
              <h3>As HTML</h3>
              {/* No scripts, no same origin: the preview can do nothing but show itself. */}
              <iframe title="HTML preview" sandbox="" srcDoc={preview.html} className="cs-preview-frame" />
              <h3>As text</h3>
              <pre className="cs-preview-text" data-testid="text-preview">
                {preview.text}
              </pre>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function Progress({ broadcast: b, onChange, onNew }: { broadcast: Broadcast; onChange: (path: string) => void; onNew: () => void }) {
  const p = b.progress;
  const stateWords = { draft: 'Draft', sending: 'Sending', paused: 'Paused', cancelled: 'Cancelled', done: 'Sent' }[b.state];
  return (
    <div aria-labelledby="bc-progress-title">
      <h2 id="bc-progress-title">
        “{b.subject}”: <span data-testid="bc-state">{stateWords}</span>
      </h2>
      <p className="cs-muted">
        Sent by {b.sentBy ?? '—'} {b.sentAt ? formatTime(b.sentAt) : ''}
      </p>
      <dl className="cs-progress" data-testid="bc-progress">
        <dt>Recipients</dt>
        <dd>{p.recipients}</dd>
        <dt>Queued</dt>
        <dd>{p.queued}</dd>
        <dt>Sent</dt>
        <dd data-testid="bc-sent">{p.sent}</dd>
        <dt>Failed</dt>
        <dd>{p.failed}</dd>
        <dt>Skipped (unsubscribed meanwhile)</dt>
        <dd>{p.skipped}</dd>
        {p.cancelled ? (
          <>
            <dt>Not sent (cancelled)</dt>
            <dd>{p.cancelled}</dd>
          </>
        ) : null}
        <dt>Time left</dt>
        <dd>{eta(p.etaSeconds)}</dd>
      </dl>
      {p.failures.length ? (
        <>
          <h3>Why some failed</h3>
          <ul>
            {p.failures.map((f) => (
              <li key={f.reason}>
                {f.count} × {f.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="cs-actions">
        {b.state === 'sending' ? (
          <button type="button" className="cs-secondary" onClick={() => onChange(adminApiPaths.broadcastPause)}>
            Pause
          </button>
        ) : null}
        {b.state === 'paused' ? (
          <button type="button" onClick={() => onChange(adminApiPaths.broadcastResume)}>
            Resume
          </button>
        ) : null}
        {b.state === 'sending' || b.state === 'paused' ? (
          <button type="button" className="cs-danger" onClick={() => onChange(adminApiPaths.broadcastCancel)}>
            Cancel the rest
          </button>
        ) : (
          <button type="button" onClick={onNew}>
            Write a new broadcast
          </button>
        )}
      </div>
    </div>
  );
}
