import { useState, type FormEvent } from 'react';
import { locales, type Locale } from '../../../shared/locales.ts';
import { localeEnglishNames } from '../../../shared/admin/locale-names.ts';
import {
  subscriberStatuses,
  SUBSTRING_SEARCH_MIN,
  type SubscriberListReply,
  type SubscriberStatusName,
} from '../../../shared/admin/subscribers.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { LoadMore } from '../console/load-more.tsx';
import { formText, useKeysetList } from '../console/use-keyset-list.ts';
import { postForFile, saveFile } from '../console/download.ts';
import { Notice } from '../console/field.tsx';
import { SubscriberPanel } from './subscriber-detail.tsx';
import { statusLabel, SubscriberTable } from './subscriber-table.tsx';
import { subscribersContract, subscribersCsvContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

interface Filter {
  q: string;
  status: '' | SubscriberStatusName;
  locale: '' | Locale;
  sort: 'newest' | 'oldest';
}
const noFilter: Filter = { q: '', status: '', locale: '', sort: 'newest' };
const fetchSubscribersPage = (f: Filter, after: string | null) =>
  callContract(subscribersContract, {
    query: {
      q: f.q,
      status: f.status || undefined,
      locale: f.locale || undefined,
      sort: f.sort,
      cursor: after ?? undefined,
    },
  });
const toSubscribersPage = (reply: SubscriberListReply) => ({ rows: reply.items, nextCursor: reply.nextCursor });

/**
 * The list: search, status filter, newest or oldest first, a page at a time (keyset: "Load more"
 * asks for the rows after the last one shown), addresses masked by the server; and one person's
 * record beside it, read on purpose (decision 0029). Everything visitors typed is rendered as
 * React text, never as markup.
 */
export function SubscribersView() {
  const read = useApiData();
  const { withFreshProof } = useConsole();
  const [filter, setFilter] = useState<Filter>(noFilter);
  const [info, setInfo] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  // A search counts against the day's allowance of personal reads (decision 0029): past it the
  // server asks for a code, and withFreshProof shows the prompt and repeats the search.
  const fetchPage = (f: Filter, after: string | null) =>
    f.q ? withFreshProof(() => fetchSubscribersPage(f, after)) : fetchSubscribersPage(f, after);
  const {
    rows: items,
    setRows: setItems,
    cursor,
    error,
    setError,
    busy,
    setBusy,
    load,
  } = useKeysetList(fetchPage, toSubscribersPage, noFilter);

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const get = (k: string) => formText(data, k);
    const next: Filter = {
      q: get('q').trim(),
      status: (subscriberStatuses as readonly string[]).includes(get('status'))
        ? (get('status') as SubscriberStatusName)
        : '',
      locale: locales.find((l) => l === get('locale')) ?? '',
      sort: get('sort') === 'oldest' ? 'oldest' : 'newest',
    };
    setFilter(next);
    setInfo(null);
    load(next, null);
  }

  async function downloadCsv() {
    setInfo(null);
    setError(null);
    setBusy(true);
    const body = {
      ...(filter.q ? { q: filter.q } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.locale ? { locale: filter.locale } : {}),
    };
    const result = await withFreshProof(() => postForFile(subscribersCsvContract, { body }));
    setBusy(false);
    const { data, error: failed } = read(result);
    if (failed) return setError(failed);
    if (data) {
      saveFile(data.blob, data.filename);
      setInfo(`Downloaded ${data.filename}.`);
    }
  }

  const onErased = (id: string, message: string) => {
    setItems((old) => old?.filter((i) => i.id !== id) ?? null);
    setSelected(null);
    setInfo(message);
  };

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Subscribers</h1>
      <form className="cs-filters" onSubmit={onFilter} role="search" aria-label="Search subscribers">
        <div className="cs-field">
          <label htmlFor="subs-q">Search by name or address</label>
          <input id="subs-q" name="q" type="search" maxLength={100} aria-describedby="subs-q-hint" />
        </div>
        <ChoiceFilter name="status" label="Status" any="Any status" choices={subscriberStatuses} labels={statusLabel} />
        <ChoiceFilter name="locale" label="Language" any="Any language" choices={locales} labels={localeEnglishNames} />
        <div className="cs-field">
          <label htmlFor="subs-sort">Order</label>
          <select id="subs-sort" name="sort" defaultValue="newest">
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </div>
        <button type="submit">Search</button>
        <button type="button" className="cs-secondary" onClick={() => void downloadCsv()} disabled={busy}>
          Download CSV
        </button>
      </form>
      <p className="cs-hint" id="subs-q-hint">
        {SUBSTRING_SEARCH_MIN} characters or more find that text anywhere in a name or an email address; one or two
        characters find email addresses that start with them. Addresses are shown masked; “Show details” opens one
        person’s record and is recorded in the audit log. Each search, record opened and row downloaded counts towards
        your daily allowance of personal records; past it, each one asks for a code from your authenticator app. The CSV
        download holds everyone matching the search, status and language above, and always asks for a code.
      </p>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{info}</Notice>
      <div className="cs-split">
        <div>
          {items === null ? (
            <p>Loading…</p>
          ) : items.length === 0 ? (
            <p>{filter === noFilter ? 'Nobody has signed up yet.' : 'Nobody matches this search.'}</p>
          ) : (
            <SubscriberTable items={items} selected={selected} sort={filter.sort} onSelect={setSelected} />
          )}
          <LoadMore cursor={cursor} busy={busy} label="Load more" onLoad={() => load(filter, cursor)} />
        </div>
        {selected ? (
          <SubscriberPanel key={selected} id={selected} onClose={() => setSelected(null)} onErased={onErased} />
        ) : null}
      </div>
    </section>
  );
}

/** A filter that is one of a fixed list, or any: its label, its "any" choice, then each choice. */
function ChoiceFilter<C extends string>({
  name,
  label,
  any,
  choices,
  labels,
}: {
  name: string;
  label: string;
  any: string;
  choices: readonly C[];
  labels: Readonly<Record<C, string>>;
}) {
  const id = `subs-${name}`;
  return (
    <div className="cs-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue="">
        <option value="">{any}</option>
        {choices.map((c) => (
          <option key={c} value={c}>
            {labels[c]}
          </option>
        ))}
      </select>
    </div>
  );
}
