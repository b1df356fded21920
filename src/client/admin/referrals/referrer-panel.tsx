import { Fragment, useEffect, useRef, useState } from 'react';
import { referrerDetailsContract } from '../../../shared/admin/contracts.ts';
import { refusalReasonLabels, type ReferrerDetail } from '../../../shared/admin/referrals.ts';
import { callContract } from '../../lib/call-contract.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { Notice } from '../console/field.tsx';
import { formatTime } from '../console/format.ts';
import { CountCells, CountHeads } from './referral-tables.tsx';

const statusWords: Record<ReferrerDetail['status'], string> = {
  pending: 'Not confirmed yet',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

/**
 * One referrer: their address, their invites by status and by day, never who they invited.
 * Opening it is a POST the server audits and counts against the day's allowance of personal
 * records; past it, the console asks for a code first (withFreshProof).
 */
export function ReferrerPanel({ id, label, onClose }: { id: string; label: string; onClose: () => void }) {
  const read = useApiData();
  const { withFreshProof } = useConsole();
  const [referrer, setReferrer] = useState<ReferrerDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Once per referrer shown (the panel is keyed by id): each read is audited and counted.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void withFreshProof(() => callContract(referrerDetailsContract, { params: { id } })).then((result) => {
      const { data, error: failed } = read(result);
      setError(failed);
      setReferrer(data);
      headingRef.current?.focus();
    });
  }, [id, read, withFreshProof]);

  return (
    <aside className="cs-panel" aria-labelledby="referrer-title">
      <div className="cs-panel-head">
        <h2 id="referrer-title" tabIndex={-1} ref={headingRef}>
          {referrer ? referrer.email : label}
        </h2>
        <button type="button" className="cs-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <Notice kind="error">{error}</Notice>
      {referrer === null ? (
        error ? null : (
          <p>Loading…</p>
        )
      ) : (
        <>
          <dl className="cs-facts">
            <dt>Their subscription</dt>
            <dd>
              {statusWords[referrer.status]}, signed up {formatTime(referrer.signedUpAt)}
            </dd>
            <dt>Confirmed invites</dt>
            <dd>{referrer.counts.counted}</dd>
            <dt>Pending invites</dt>
            <dd>{referrer.counts.pending}</dd>
            {referrer.counts.byReason.map((r) => (
              <Fragment key={r.reason}>
                <dt>Not counted: {refusalReasonLabels[r.reason]}</dt>
                <dd>{r.count}</dd>
              </Fragment>
            ))}
          </dl>
          <h3>Invites by day (UTC)</h3>
          {referrer.timeline.length === 0 ? (
            <p className="cs-muted">No one has signed up through their link.</p>
          ) : (
            <table className="cs-table">
              <caption className="cs-visually-hidden">Their invites by day of sign-up</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <CountHeads />
                </tr>
              </thead>
              <tbody>
                {referrer.timeline.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{d.day}</th>
                    <CountCells counts={d} />
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="cs-hint">
            Opening a referrer is recorded in the audit log and counts towards your daily allowance of personal records
            ({referrer.reads.today} of {referrer.reads.allowance} today). Who they invited is never shown.
          </p>
        </>
      )}
    </aside>
  );
}
