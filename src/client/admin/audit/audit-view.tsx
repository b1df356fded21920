import { useState, type FormEvent } from 'react';
import { auditActions, type AuditPage } from '../../../shared/admin/audit-schema.ts';
import { LoadMore } from '../console/load-more.tsx';
import { formText, useKeysetList } from '../console/use-keyset-list.ts';
import { Notice } from '../console/field.tsx';
import { formatTime } from '../console/format.ts';
import { auditContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

interface Filter {
  actor: string;
  action: string;
  from: string;
  to: string;
}

const noFilter: Filter = { actor: '', action: '', from: '', to: '' };
const actionLabel = (action: string): string => (auditActions as Record<string, string>)[action] ?? action;
const viaLabel = { console: '', 'command-line': ' (command line)', anonymous: '', system: ' (automatic)' } as const;
const fetchAuditPage = (f: Filter, after: string | null) =>
  callContract(auditContract, { query: { ...f, cursor: after ?? undefined } });

/** Who did what, and when: newest first, filtered by operator, action and days, a page at a time. */
export function AuditView() {
  const [filter, setFilter] = useState<Filter>(noFilter);
  const [actors, setActors] = useState<string[]>([]);
  const {
    rows: entries,
    cursor,
    error,
    busy,
    load,
  } = useKeysetList(
    fetchAuditPage,
    (page: AuditPage) => {
      setActors(page.actors);
      return { rows: page.entries, nextCursor: page.nextCursor };
    },
    noFilter,
  );

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const get = (k: string) => formText(data, k);
    const next = { actor: get('actor'), action: get('action'), from: get('from'), to: get('to') };
    setFilter(next);
    load(next, null);
  }

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Audit log</h1>
      <form className="cs-filters" onSubmit={onFilter} aria-label="Filter the audit log">
        <div className="cs-field">
          <label htmlFor="audit-actor">Operator</label>
          <select id="audit-actor" name="actor" defaultValue="">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div className="cs-field">
          <label htmlFor="audit-action">Action</label>
          <select id="audit-action" name="action" defaultValue="">
            <option value="">All actions</option>
            {Object.entries(auditActions).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="cs-field">
          <label htmlFor="audit-from">From</label>
          <input id="audit-from" name="from" type="date" />
        </div>
        <div className="cs-field">
          <label htmlFor="audit-to">To</label>
          <input id="audit-to" name="to" type="date" />
        </div>
        <button type="submit">Show</button>
      </form>
      <Notice kind="error">{error}</Notice>
      {entries === null ? (
        <p>Loading…</p>
      ) : entries.length === 0 ? (
        <p>Nothing recorded{filter === noFilter ? ' yet' : ' for this filter'}.</p>
      ) : (
        <div className="cs-table-wrap">
          <table className="cs-table">
            <caption className="cs-visually-hidden">Audit log entries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Concerning</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td data-label="When">{formatTime(e.at)}</td>
                  <td data-label="Who">
                    {e.actor
                      ? e.actor + viaLabel[e.via]
                      : e.via === 'command-line'
                        ? 'Command line'
                        : e.via === 'system'
                          ? 'Automatic'
                          : '—'}
                  </td>
                  <td data-label="What">{actionLabel(e.action)}</td>
                  <td data-label="Concerning">{e.subject ?? '—'}</td>
                  <td data-label="Details">{e.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore cursor={cursor} busy={busy} label="Older entries" onLoad={() => load(filter, cursor)} />
    </section>
  );
}
