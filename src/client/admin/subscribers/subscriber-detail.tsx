import { useCallback, useEffect, useRef, useState } from 'react';
import type { SubscriberDetail } from '../../../shared/admin/subscribers.ts';
import type { ApiResult } from '../../lib/http.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { saveFile } from '../console/download.ts';
import { Notice } from '../console/field.tsx';
import { formatTime } from '../console/format.ts';
import { SubscriberRecord } from './subscriber-record.tsx';
import { EraseDialog } from './subscriber-erase-dialog.tsx';
import {
  subscriberDetailsContract,
  subscriberEraseContract,
  subscriberExportContract,
  subscriberResendContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

/**
 * One person: their record, consent, place and emails, and what an operator may do. Opening it is
 * a POST the server audits and counts against the day's allowance; past it, the console asks for a
 * code first (withFreshProof) and repeats the request.
 */
export function SubscriberPanel({
  id,
  onClose,
  onErased,
}: {
  id: string;
  onClose: () => void;
  onErased: (id: string, message: string) => void;
}) {
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
        error ? null : (
          <p>Loading…</p>
        )
      ) : (
        <>
          <SubscriberRecord person={person} />
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
          {person.status === 'pending' && person.mail.suppressed ? (
            <p className="cs-hint">
              Mail to this address is suppressed (see Mail status): a confirmation would not be sent.
            </p>
          ) : null}
          {person.status === 'pending' && !person.resend.allowed && person.resend.availableAt ? (
            <p className="cs-hint">
              A confirmation was sent recently; you can resend it after {formatTime(person.resend.availableAt)}.
            </p>
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
