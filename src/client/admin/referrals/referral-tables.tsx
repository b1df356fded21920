import {
  clusterKindLabels,
  clusterKinds,
  refusalReasonLabels,
  type ReferralLimits,
  type ReferralCluster,
  type ReferralsReport,
  type TopReferrer,
} from '../../../shared/admin/referrals.ts';
import { ActionHead } from '../console/action-head.tsx';
import { formatTime } from '../console/format.ts';

export const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The three counts' column heads, alike in every table of invites by status. */
export function CountHeads() {
  return (
    <>
      <th scope="col">Confirmed</th>
      <th scope="col">Pending</th>
      <th scope="col">Not counted</th>
    </>
  );
}

export function CountCells({ counts }: { counts: { counted: number; pending: number; refused: number } }) {
  return (
    <>
      <td data-label="Confirmed">{counts.counted}</td>
      <td data-label="Pending">{counts.pending}</td>
      <td data-label="Not counted">{counts.refused}</td>
    </>
  );
}

/** Why invites did not count: each reason's count and its share of every decided invite. */
export function RefusalTable({ report }: { report: ReferralsReport }) {
  return (
    <div className="cs-top">
      <h2>Not counted, and why</h2>
      <p className="cs-hint">
        {report.totals.refused} of {report.totals.counted + report.totals.refused} decided invites (
        {percent(report.refusedShare)}) did not count. Refusals are silent to the visitor: the sign-up works, only the
        count does not move.
      </p>
      <table className="cs-table">
        <caption className="cs-visually-hidden">Invites not counted, by reason</caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col">Invites</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {report.refusals.map((r) => (
            <tr key={r.reason}>
              <th scope="row">{refusalReasonLabels[r.reason]}</th>
              <td data-label="Invites">{r.count}</td>
              <td data-label="Share">{percent(r.share)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The clusters a farm leaves: counts for everyone, the clusters themselves for senders and owners. */
export function ClusterTable({
  report,
  onOpen,
}: {
  report: ReferralsReport;
  onOpen: (id: string, label: string) => void;
}) {
  return (
    <div className="cs-top">
      <h2>Clusters flagged</h2>
      <ul className="cs-hint" aria-label="Clusters by kind">
        {clusterKinds.map((k) => (
          <li key={k}>
            {clusterKindLabels[k]}: <strong>{report.clusterCounts[k]}</strong>
          </li>
        ))}
      </ul>
      {report.clusters === null ? null : report.clusters.length === 0 ? (
        <p className="cs-muted">No cluster reaches these thresholds.</p>
      ) : (
        <table className="cs-table">
          <caption className="cs-visually-hidden">Clusters flagged, largest first</caption>
          <thead>
            <tr>
              <th scope="col">Cluster</th>
              <th scope="col">Invites</th>
              <th scope="col">Referrers</th>
              <th scope="col">Counted</th>
              <th scope="col">When</th>
              <ActionHead />
            </tr>
          </thead>
          <tbody>
            {report.clusters.map((c) => (
              <ClusterRow key={`${c.kind}-${c.label}-${c.referrerId ?? ''}`} cluster={c} onOpen={onOpen} />
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function ClusterRow({ cluster: c, onOpen }: { cluster: ReferralCluster; onOpen: (id: string, label: string) => void }) {
  const { referrerId } = c;
  return (
    <tr>
      <th scope="row">
        {c.label}
        <span className="cs-hint cs-cities">{clusterKindLabels[c.kind]}</span>
      </th>
      <td data-label="Invites">{c.invites}</td>
      <td data-label="Referrers">{c.referrers}</td>
      <td data-label="Counted">{c.counted}</td>
      <td data-label="When">
        {formatTime(c.first)} – {formatTime(c.last)}
      </td>
      <td>
        {referrerId ? (
          <button type="button" className="cs-secondary" onClick={() => onOpen(referrerId, c.label)}>
            Open referrer<span className="cs-visually-hidden">{` of cluster ${c.label}`}</span>
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** The top referrers, masked: opening one reads their address, on purpose and audited. */
export function TopReferrerTable({
  rows,
  selected,
  onOpen,
}: {
  rows: TopReferrer[];
  selected: string | null;
  onOpen: (id: string, label: string) => void;
}) {
  if (rows.length === 0) return <p>Nobody has brought a friend yet.</p>;
  return (
    <div className="cs-table-wrap">
      <table className="cs-table">
        <caption className="cs-visually-hidden">Top referrers, most confirmed invites first</caption>
        <thead>
          <tr>
            <th scope="col">Referrer</th>
            <CountHeads />
            <ActionHead />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} aria-current={r.id === selected ? 'true' : undefined}>
              <th scope="row">{r.maskedEmail}</th>
              <CountCells counts={r} />
              <td>
                <button type="button" className="cs-secondary" onClick={() => onOpen(r.id, r.maskedEmail)}>
                  Open<span className="cs-visually-hidden">{` ${r.maskedEmail}`}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What an invite must pass to count, with the limits the server runs with (docs/decisions/0063). */
export function LimitsList({ limits }: { limits: ReferralLimits }) {
  const rules = [
    'The invited person confirms their address.',
    `From another network than the referrer’s (one IPv4 address, or one IPv6 /${limits.ipv6Prefix}).`,
    'In a mailbox of their own: not the referrer’s, and not one that counted for this referrer already, however it is spelt (+tags, capitals, Gmail’s dots).',
    'At a domain that is not disposable.',
    `At most ${limits.perPrivateDomain} ever for one referrer at one domain that is not a large public mail provider (a company’s, or a farm’s catch-all).`,
    `At most ${limits.perReferrerDaily} a day (UTC) for one referrer.`,
    `At most ${limits.perNetworkDaily} a day (UTC) from one network, whoever invited them.`,
  ];
  return (
    <ul className="cs-hint" aria-label="What an invite must pass to count">
      {rules.map((rule) => (
        <li key={rule}>{rule}</li>
      ))}
    </ul>
  );
}
