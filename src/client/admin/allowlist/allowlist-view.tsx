import { useState, type FormEvent } from 'react';
import type { AllowlistEntry, AllowlistOverview } from '../../../shared/admin/allowlist.ts';
import {
  allowlistContract,
  allowlistCsvContract,
  allowlistFreezeApproveContract,
  allowlistFreezeContract,
  allowlistRemoveContract,
  allowlistReopenContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';
import type { ApiResult } from '../../lib/http.ts';
import { ActionHead } from '../console/action-head.tsx';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { postForFile, saveFile } from '../console/download.ts';
import { Notice } from '../console/field.tsx';
import { LoadMore } from '../console/load-more.tsx';
import { formText, useKeysetList } from '../console/use-keyset-list.ts';
import { formatTime } from '../console/format.ts';
import { countryNamesIn } from '../../../shared/countries.ts';

/**
 * Whether the holder linked an email: linked only once the email's owner pressed the button of
 * the email sent for this wallet's link; pending while that email's link is unexpired (7 days).
 * The address itself is never shown here; the Subscribers view opens the person.
 */
const emailWords: Record<AllowlistEntry['email'], string> = {
  linked: 'Linked',
  pending: 'Pending (not confirmed)',
  none: '—',
};

const fetchPage = (search: string, after: string | null) =>
  callContract(allowlistContract, { query: { search: search || undefined, cursor: after ?? undefined } });

/**
 * The presale allowlist (docs/decisions/0045-wallet-allowlist.md): how many joined each day, a
 * search by address, each entry with its time, removal (audited), the CSV (fresh code), and the
 * snapshots: one operator asks for a freeze, a second approves it; the root shown is what goes
 * into the sale contract.
 */
export function AllowlistView() {
  const { email, withFreshProof } = useConsole();
  const read = useApiData();
  const [overview, setOverview] = useState<AllowlistOverview | null>(null);
  const [search, setSearch] = useState('');
  const [info, setInfo] = useState<string | null>(null);
  const [keepOpen, setKeepOpen] = useState(false);
  const [currentTermsOnly, setCurrentTermsOnly] = useState(false);
  const { rows, setRows, cursor, error, setError, busy, setBusy, load } = useKeysetList(
    fetchPage,
    (page: AllowlistOverview) => {
      setOverview(page);
      return { rows: page.entries, nextCursor: page.nextCursor };
    },
    '' as string,
  );

  /** Runs an action, shows its message or error, and reads the list again. */
  async function act<T extends { message: string }>(action: () => Promise<ApiResult<T>>) {
    setInfo(null);
    setError(null);
    setBusy(true);
    const { data, error: failed } = read(await withFreshProof(action));
    setBusy(false);
    if (failed) return setError(failed);
    if (data) setInfo(data.message);
    load(search, null);
  }

  async function downloadCsv() {
    setInfo(null);
    setBusy(true);
    const { data, error: failed } = read(await withFreshProof(() => postForFile(allowlistCsvContract, {})));
    setBusy(false);
    if (failed) return setError(failed);
    if (data) {
      saveFile(data.blob, data.filename);
      setInfo(`Downloaded ${data.filename}.`);
    }
  }

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = formText(new FormData(event.currentTarget), 'search').trim();
    setSearch(value);
    setRows(null);
    load(value, null);
  }

  const remove = (entry: AllowlistEntry) =>
    act(() => callContract(allowlistRemoveContract, { body: { address: entry.address } }));
  const request = overview?.freezeRequest ?? null;

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Allowlist</h1>
      <p className="cs-muted">
        Wallets that proved they hold their address by signing a free message.
        {overview ? ` ${overview.total} on the list; registration is ${overview.registration}.` : ''}
      </p>
      {overview ? (
        <p className="cs-muted">
          {`Live presale terms: version ${overview.termsVersion} (a change to the terms or the restricted countries is a content change and a new build). ${overview.onCurrentTerms} of ${overview.total} entries accepted it; the others accepted an older version or joined before any terms.`}
        </p>
      ) : null}
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{info}</Notice>

      <h2>Snapshots</h2>
      {overview?.snapshots.length ? (
        <ul>
          {overview.snapshots.map((s) => (
            <li key={s.id}>
              {`${formatTime(s.frozenAt)}: ${s.entries} addresses, root `}
              <code>{s.root}</code>
              {` (asked by ${s.requestedBy}${s.approvedBy ? `, approved by ${s.approvedBy}` : ', no second operator'}; registration ${s.registrationAfter}; ${s.termsVersion === null ? 'every entry' : `only entries on terms version ${s.termsVersion}`})`}
            </li>
          ))}
        </ul>
      ) : (
        <p>No snapshot frozen yet.</p>
      )}
      {request ? (
        <p>
          {`${request.requestedBy} asked to freeze at ${formatTime(request.requestedAt)} (registration to ${request.keepOpen ? 'stay open' : 'close'}; ${request.currentTermsOnly ? 'only entries that accepted the live terms' : 'every entry'}).`}
        </p>
      ) : null}
      <div className="cs-actions">
        <label>
          <input type="checkbox" checked={keepOpen} onChange={(e) => setKeepOpen(e.currentTarget.checked)} /> Keep
          registration open for a next round
        </label>
        <label>
          <input
            type="checkbox"
            checked={currentTermsOnly}
            onChange={(e) => setCurrentTermsOnly(e.currentTarget.checked)}
          />{' '}
          Leave out entries that accepted no terms or an older version
        </label>
        <button
          type="button"
          className="cs-secondary"
          disabled={busy}
          onClick={() =>
            void act(() => callContract(allowlistFreezeContract, { body: { keepOpen, currentTermsOnly } }))
          }
        >
          {overview?.approvalsRequired === 1 ? 'Freeze a snapshot' : 'Ask to freeze a snapshot'}
        </button>
        {request && request.requestedBy !== email ? (
          <button
            type="button"
            className="cs-danger"
            disabled={busy}
            onClick={() => void act(() => callContract(allowlistFreezeApproveContract, { body: {} }))}
          >
            Approve the freeze
          </button>
        ) : null}
        {overview?.registration === 'closed' ? (
          <button
            type="button"
            className="cs-secondary"
            disabled={busy}
            onClick={() => void act(() => callContract(allowlistReopenContract, { body: {} }))}
          >
            Reopen registration
          </button>
        ) : null}
        <button type="button" className="cs-secondary" disabled={busy} onClick={() => void downloadCsv()}>
          Download CSV
        </button>
      </div>

      <h2>Joined per day</h2>
      {overview?.byDay.length ? (
        <table className="cs-table">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Joined</th>
            </tr>
          </thead>
          <tbody>
            {overview.byDay.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td>{d.joined}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Nobody has joined yet.</p>
      )}

      <h2>Joins refused by country</h2>
      <p className="cs-muted">Joins the server’s own lookup placed in a restricted country: counts only, never who.</p>
      {overview?.refusedByCountry.length ? (
        <table className="cs-table">
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {overview.refusedByCountry.map((r) => (
              <tr key={r.country}>
                <td>{`${countryNamesIn('en', [r.country])[0] ?? r.country} (${r.country})`}</td>
                <td>{r.refused}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No join has been refused for its country.</p>
      )}

      <h2>Entries</h2>
      <form className="cs-actions" role="search" onSubmit={onSearch}>
        <label>
          Address contains <input name="search" defaultValue={search} maxLength={42} />
        </label>
        <button type="submit" className="cs-secondary" disabled={busy}>
          Search
        </button>
      </form>
      {rows === null ? (
        <p>Loading…</p>
      ) : rows.length === 0 ? (
        <p>No entries.</p>
      ) : (
        <div className="cs-table-wrap">
          <table className="cs-table">
            <caption className="cs-visually-hidden">Allowlist entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Joined</th>
                <th scope="col">Country</th>
                <th scope="col">Email</th>
                <th scope="col">Terms</th>
                <ActionHead />
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => (
                <tr key={e.address}>
                  <td data-label="Address">
                    <code>{e.address}</code>
                  </td>
                  <td data-label="Joined">{formatTime(e.joinedAt)}</td>
                  <td data-label="Country">{e.country ?? '—'}</td>
                  <td data-label="Email">{emailWords[e.email]}</td>
                  <td data-label="Terms">{e.termsVersion ?? 'Before any terms'}</td>
                  <td>
                    <button type="button" className="cs-secondary" disabled={busy} onClick={() => void remove(e)}>
                      Remove<span className="cs-visually-hidden">{` ${e.address}`}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore cursor={cursor} busy={busy} label="Show older entries" onLoad={() => load(search, cursor)} />
    </section>
  );
}
