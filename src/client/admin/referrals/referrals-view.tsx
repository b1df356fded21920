import { useEffect, useState, type FormEvent } from 'react';
import { referralsContract, referrersCsvContract } from '../../../shared/admin/contracts.ts';
import type { ReferralsReport } from '../../../shared/admin/referrals.ts';
import { callContract } from '../../lib/call-contract.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { postForFile, saveFile } from '../console/download.ts';
import { Field, Notice } from '../console/field.tsx';
import { ClusterTable, LimitsList, percent, RefusalTable, TopReferrerTable } from './referral-tables.tsx';
import { ReferrerPanel } from './referrer-panel.tsx';

const TOP_SHOWN = 20;

/**
 * Invite links: how many friends people bring, which invites did not count and why,
 * and the clusters a farm leaves. The server decides what this operator reads: a viewer's report
 * holds counts only; a sender's or owner's also the top referrers (masked) and the clusters, and
 * they may open one referrer (audited) or download the top N with addresses (fresh proof).
 */
export function ReferralsView() {
  const read = useApiData();
  const { withFreshProof } = useConsole();
  const [report, setReport] = useState<ReferralsReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [selected, setSelected] = useState<{ id: string; label: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [topError, setTopError] = useState<string | undefined>(undefined);

  useEffect(() => {
    void callContract(referralsContract, { query: { top: TOP_SHOWN } }).then((result) => {
      const { data, error: failed } = read(result);
      setError(failed);
      setReport(data);
    });
  }, [read]);

  async function downloadCsv(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const top = Number(new FormData(event.currentTarget).get('top'));
    setInfo(null);
    setError(null);
    setTopError(undefined);
    setBusy(true);
    const result = await withFreshProof(() => postForFile(referrersCsvContract, { body: { top } }));
    setBusy(false);
    if (!result.ok && result.error.fields?.top) return setTopError(result.error.fields.top);
    const { data, error: failed } = read(result);
    if (failed) return setError(failed);
    if (data) {
      saveFile(data.blob, data.filename);
      setInfo(`Downloaded ${data.filename}.`);
    }
  }

  const open = (id: string, label: string) => setSelected({ id, label });
  const totals = report
    ? ([
        ['Referrers', report.totals.referrers],
        ['Sign-ups through a link', report.totals.invites],
        ['Confirmed and counted', report.totals.counted],
        ['Not confirmed yet', report.totals.pending],
        ['Not counted', `${report.totals.refused} (${percent(report.refusedShare)})`],
      ] as const)
    : [];

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Referrals</h1>
      <p className="cs-muted">
        Invite links: an invite counts only when the invited person confirms, and only within the rules below.
      </p>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{info}</Notice>
      {report === null ? (
        error ? null : (
          <p>Loading…</p>
        )
      ) : (
        <>
          <LimitsList limits={report.limits} />
          <ul className="cs-totals" aria-label="Totals">
            {totals.map(([label, value]) => (
              <li key={label}>
                <span className="cs-total-label">{label}</span>
                <span className="cs-total-value">{value}</span>
              </li>
            ))}
          </ul>
          <div className="cs-lists">
            <RefusalTable report={report} />
            <ClusterTable report={report} onOpen={open} />
          </div>
          {report.topReferrers === null ? (
            <p className="cs-hint">Your role sees counts only: senders and owners see who brings friends.</p>
          ) : (
            <>
              <h2>Top referrers</h2>
              <p className="cs-hint">
                The {TOP_SHOWN} with the most confirmed invites, addresses masked. “Open” shows one referrer’s address
                and their invites by day, and is recorded in the audit log.
              </p>
              <div className="cs-split">
                <TopReferrerTable rows={report.topReferrers} selected={selected?.id ?? null} onOpen={open} />
                {selected ? (
                  <ReferrerPanel
                    key={selected.id}
                    id={selected.id}
                    label={selected.label}
                    onClose={() => setSelected(null)}
                  />
                ) : null}
              </div>
              <form className="cs-filters" onSubmit={(e) => void downloadCsv(e)} aria-label="Export top referrers">
                <Field
                  id="ref-top"
                  name="top"
                  label="Referrers to export"
                  type="number"
                  min={1}
                  max={1000}
                  defaultValue={100}
                  error={topError}
                  hint="With their addresses, to reward them: always asks for a code, and is recorded in the audit log with the count."
                />
                <button type="submit" disabled={busy}>
                  Download CSV
                </button>
              </form>
            </>
          )}
        </>
      )}
    </section>
  );
}
