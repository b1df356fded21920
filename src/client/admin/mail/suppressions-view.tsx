import { useEffect, useRef, useState } from 'react';
import {
  liftSuppressionContract,
  suppressionsContract,
  suppressionsCsvContract,
} from '../../../shared/admin/contracts.ts';
import { roleAllows } from '../../../shared/admin/roles.ts';
import {
  suppressionReasonLabels,
  type SuppressionEntry,
  type SuppressionList,
} from '../../../shared/admin/suppressions.ts';
import { callContract } from '../../lib/call-contract.ts';
import { ActionHead } from '../console/action-head.tsx';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { postForFile, saveFile } from '../console/download.ts';
import { Notice } from '../console/field.tsx';
import { LoadMore } from '../console/load-more.tsx';
import { useKeysetList } from '../console/use-keyset-list.ts';
import { formatTime } from '../console/format.ts';

const fetchPage = (_: null, after: string | null) =>
  callContract(suppressionsContract, { query: { cursor: after ?? undefined } });

/**
 * The suppression list (decision 0035): addresses never mailed again, by reason, newest first, a
 * page at a time. It holds no address, so neither does this view. Senders read and export it; an
 * owner lifts an entry (after saying so in words, and with a fresh code).
 */
export function SuppressionsView() {
  const { role, email, withFreshProof } = useConsole();
  const read = useApiData();
  const [standing, setStanding] = useState<number | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [lifting, setLifting] = useState<SuppressionEntry | null>(null);
  const { rows, setRows, cursor, error, setError, busy, setBusy, load } = useKeysetList(
    fetchPage,
    (page: SuppressionList) => {
      setStanding(page.standing);
      return { rows: page.entries, nextCursor: page.nextCursor };
    },
    null,
  );
  const mayLift = roleAllows(role, 'owner');

  async function downloadCsv() {
    setInfo(null);
    setError(null);
    setBusy(true);
    const result = await withFreshProof(() => postForFile(suppressionsCsvContract, {}));
    setBusy(false);
    const { data, error: failed } = read(result);
    if (failed) return setError(failed);
    if (data) {
      saveFile(data.blob, data.filename);
      setInfo(`Downloaded ${data.filename}.`);
    }
  }

  async function lift(entry: SuppressionEntry): Promise<string | null> {
    const result = await withFreshProof(() =>
      callContract(liftSuppressionContract, { params: { id: entry.id }, body: {} }),
    );
    if (!result.ok && result.error.code === 'fresh_proof_required') return 'Not lifted: the code was not confirmed.';
    const { data, error: failed } = read(result);
    if (!data) return failed;
    const at = new Date().toISOString();
    setRows((old) => old?.map((r) => (r.id === entry.id ? { ...r, liftedAt: at, liftedBy: email } : r)) ?? null);
    setStanding((n) => (n === null ? n : Math.max(0, n - 1)));
    setLifting(null);
    setInfo(`${data.message} (${suppressionReasonLabels[entry.reason]}, since ${formatTime(entry.createdAt)}.)`);
    return null;
  }

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Suppressions</h1>
      <p className="cs-muted">
        Addresses that are never mailed again: they bounced for good, kept bouncing, or their owner marked our email as
        spam. The list keeps no address, only a keyed fingerprint of it.
        {standing === null ? '' : ` ${standing} standing.`}
      </p>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{info}</Notice>
      <div className="cs-actions">
        <button type="button" className="cs-secondary" disabled={busy} onClick={() => void downloadCsv()}>
          Download CSV
        </button>
      </div>
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>Nobody is suppressed.</p>
      ) : (
        <div className="cs-table-wrap">
          <table className="cs-table">
            <caption className="cs-visually-hidden">Suppressed addresses, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col">Source</th>
                <th scope="col">Since</th>
                <th scope="col">Lifted</th>
                <th scope="col">Subscriber</th>
                {mayLift ? <ActionHead /> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id}>
                  <td data-label="Reason">
                    {suppressionReasonLabels[s.reason]}
                    {s.detail ? <span className="cs-muted">{` (${s.detail})`}</span> : null}
                  </td>
                  <td data-label="Source">{s.source}</td>
                  <td data-label="Since">{formatTime(s.createdAt)}</td>
                  <td data-label="Lifted">
                    {s.liftedAt ? `${formatTime(s.liftedAt)}${s.liftedBy ? ` by ${s.liftedBy}` : ''}` : 'No'}
                  </td>
                  <td data-label="Subscriber">{s.subscriberId ? 'Still linked' : 'None'}</td>
                  {mayLift ? (
                    <td>
                      {s.liftedAt ? null : (
                        <button type="button" className="cs-secondary" onClick={() => setLifting(s)}>
                          Lift
                          <span className="cs-visually-hidden">{` (${suppressionReasonLabels[s.reason]}, since ${formatTime(s.createdAt)})`}</span>
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore cursor={cursor} busy={busy} label="Show older entries" onLoad={() => load(null, cursor)} />
      {lifting ? <LiftDialog entry={lifting} onCancel={() => setLifting(null)} onLift={() => lift(lifting)} /> : null}
    </section>
  );
}

/** Lifting is a decision to mail someone again: the operator reads what it means and says yes. */
function LiftDialog({
  entry,
  onCancel,
  onLift,
}: {
  entry: SuppressionEntry;
  onCancel: () => void;
  onLift: () => Promise<string | null>;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  async function confirm() {
    setBusy(true);
    setError(await onLift());
    setBusy(false);
  }

  return (
    <dialog
      ref={dialogRef}
      className="cs-dialog"
      aria-labelledby="lift-title"
      aria-describedby="lift-why"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="lift-title">Lift this suppression?</h2>
      <p id="lift-why">
        Lifting means this address can be mailed again: a new sign-up, a resent confirmation and the next broadcast will
        reach it. It was suppressed because: {suppressionReasonLabels[entry.reason].toLowerCase()}, since{' '}
        {formatTime(entry.createdAt)}. Lift it only if you know the address works again, or its owner asked for our
        emails.
      </p>
      <Notice kind="error">{error}</Notice>
      <div className="cs-actions">
        <button type="button" className="cs-danger" disabled={busy} onClick={() => void confirm()}>
          {busy ? 'Lifting…' : 'Lift the suppression'}
        </button>
        <button type="button" className="cs-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
