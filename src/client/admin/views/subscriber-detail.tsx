import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { SubscriberDetail } from '../../../shared/admin/subscribers.ts';
import type { ApiResult } from '../../lib/http.ts';
import { useApiData, useConsole } from '../console-context.tsx';
import { saveFile } from '../download.ts';
import { Notice } from '../field.tsx';
import { formatTime } from './format.ts';
import { statusLabel } from './subscriber-table.tsx';
import {
  subscriberDetailsContract,
  subscriberEraseContract,
  subscriberExportContract,
  subscriberResendContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

const place = (p: { country: string | null; city: string | null; region?: string | null }): string =>
  [p.city, p.region, p.country].filter(Boolean).join(', ') || 'Unknown';

/**
 * One person: their record, consent, place and emails, and what an operator may do. Opening it is
 * a POST the server audits and counts against the day's allowance; past it, the console asks for a
 * code first (withFreshProof) and repeats the request.
 */
export function SubscriberPanel({ id, onClose, onErased }: { id: string; onClose: () => void; onErased: (id: string, message: string) => void }) {
  const read = useApiData();
  const { withFreshProof } = useConsole();
  const [person, setPerson] = useState<SubscriberDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [erasing, setErasing] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const fetchDetail = useCallback(
    () => withFreshProof(() => callContract(subscriberDetailsContract, { params: { id } })),
    [id, withFreshProof],
  );
  const apply = useCallback(
    (result: ApiResult<SubscriberDetail>) => {
      const { data, error: failed } = read(result);
      setError(failed);
      setPerson(data);
    },
    [read],
  );
  const refresh = async () => apply(await fetchDetail());

  // Once per person shown (the panel is keyed by id): each read is audited and counted, so a
  // re-run effect (React's StrictMode runs them twice in development) must not read again.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void fetchDetail().then((r) => {
      apply(r);
      headingRef.current?.focus();
    });
  }, [fetchDetail, apply]);

  async function resend() {
    setBusy(true);
    setInfo(null);
    const { data, error: failed } = read(await callContract(subscriberResendContract, { params: { id } }));
    setBusy(false);
    setError(failed);
    if (data) setInfo(data.message);
    await refresh();
  }

  async function exportJson() {
    setBusy(true);
    setInfo(null);
    const result = await withFreshProof(() => callContract(subscriberExportContract, { params: { id } }));
    setBusy(false);
    const { data, error: failed } = read(result);
    setError(failed);
    if (!data) return;
    const name = `subscriber-${data.exportedAt.slice(0, 10)}.json`;
    saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), name);
    setInfo(`Downloaded ${name}.`);
  }

  return (
    <aside className="cs-panel" aria-labelledby="subscriber-title">
      <div className="cs-panel-head">
        <h2 id="subscriber-title" tabIndex={-1} ref={headingRef}>
          {person ? person.name || '(no name)' : 'Subscriber'}
        </h2>
        <button type="button" className="cs-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{info}</Notice>
      {person === null ? (
        error ? null : <p>Loading…</p>
      ) : (
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
            <dt>Place (from the IP address, which is not kept)</dt>
            <dd>{place(person.location)}</dd>
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
            Given {formatTime(person.consent.at)} on the page {person.consent.page}, wording version {person.consent.version}:
          </p>
          <blockquote className="cs-quote">{person.consent.text ?? 'The wording of this version was not recorded.'}</blockquote>
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
          <div className="cs-actions">
            {person.status === 'pending' ? (
              <button type="button" onClick={() => void resend()} disabled={busy || !person.resend.allowed}>
                Resend confirmation
              </button>
            ) : null}
            <button type="button" className="cs-secondary" onClick={() => void exportJson()} disabled={busy}>
              Export data (JSON)
            </button>
            <button type="button" className="cs-danger" onClick={() => setErasing(true)} disabled={busy}>
              Erase…
            </button>
          </div>
          {person.status === 'pending' && !person.resend.allowed && person.resend.availableAt ? (
            <p className="cs-hint">A confirmation was sent recently; you can resend it after {formatTime(person.resend.availableAt)}.</p>
          ) : null}
          <EraseDialog
            open={erasing}
            person={person}
            onCancel={() => setErasing(false)}
            onErase={async (confirmEmail) => {
              const result = await withFreshProof(() =>
                callContract(subscriberEraseContract, { params: { id }, body: { confirmEmail } }),
              );
              if (result.ok) {
                setErasing(false);
                onErased(id, result.data.message);
                return null;
              }
              const { error: failed } = read(result);
              return result.ok ? null : (result.error.fields?.confirmEmail ?? failed);
            }}
          />
        </>
      )}
    </aside>
  );
}

/** Erasing cannot be undone: the operator types the address back before the button works. */
function EraseDialog(props: {
  open: boolean;
  person: SubscriberDetail;
  onCancel: () => void;
  onErase: (confirmEmail: string) => Promise<string | null>;
}) {
  const { open, person, onCancel, onErase } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setTyped('');
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const matches = typed.trim().toLowerCase() === person.email.toLowerCase();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!matches || busy) return;
    setBusy(true);
    setError(await onErase(typed));
    setBusy(false);
  }

  return (
    <dialog
      ref={dialogRef}
      className="cs-dialog"
      aria-labelledby="erase-title"
      aria-describedby="erase-why"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id="erase-title">Erase this person?</h2>
        <p id="erase-why">
          Their details, consent record and every email to them are deleted for good; this cannot be undone. Sign-up totals keep
          counting them, and the audit log records the erasure. Type their email address, <strong>{person.email}</strong>, to
          confirm.
        </p>
        <div className="cs-field">
          <label htmlFor="erase-email">Their email address</label>
          <input
            id="erase-email"
            name="confirmEmail"
            type="email"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <Notice kind="error">{error}</Notice>
        <div className="cs-actions">
          <button type="submit" className="cs-danger" disabled={!matches || busy}>
            {busy ? 'Erasing…' : 'Erase for good'}
          </button>
          <button type="button" className="cs-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
