import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { unreviewedLocales } from '../../../../content/messages/locale-info.ts';
import { languageName, namesOf } from '../../../shared/admin/locale-names.ts';
import {
  audiencePresets,
  LIVE_WINDOW_MINUTES,
  MAX_PERIOD_DAYS,
  type AudiencePreset,
  type AudienceReport,
  type LiveVisitors,
} from '../../../shared/admin/audience.ts';
import type { ApiResult } from '../../lib/http.ts';
import { useApiData } from '../console/console-context.tsx';
import { Notice } from '../console/field.tsx';
import { DailyChart } from './daily-chart.tsx';
import { InviteSignups } from './invite-signups.tsx';
import { audienceContract, audienceLiveContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

const presetLabel: Record<AudiencePreset, string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  custom: 'Custom',
};
const LIVE_REFRESH_MS = 60_000;

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;
/** The change against the previous period, in words a screen reader reads well. */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const delta = (now - before) / before;
  if (Math.abs(delta) < 0.0005) return 'no change';
  return `${delta > 0 ? '+' : '−'}${Math.abs(delta * 100).toFixed(1)}%`;
}

interface Period {
  period: AudiencePreset;
  from: string;
  to: string;
}

/** Visitors, page views, sign-ups and conversion for a period beside the one before; where from. */
export function AudienceView() {
  const read = useApiData();
  const [query, setQuery] = useState<Period>({ period: '7d', from: '', to: '' });
  const [report, setReport] = useState<AudienceReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const fetchReport = (q: Period) =>
    callContract(audienceContract, { query: q.period === 'custom' ? { ...q } : { period: q.period } });
  const apply = useCallback(
    (result: ApiResult<AudienceReport>) => {
      const { data, error: failed } = read(result);
      setError(failed);
      setFieldErrors(result.ok ? {} : (result.error.fields ?? {}));
      if (data) setReport(data);
    },
    [read],
  );
  const load = (q: Period) => void fetchReport(q).then(apply);

  useEffect(() => {
    void fetchReport({ period: '7d', from: '', to: '' }).then(apply);
  }, [apply]);

  function choose(period: AudiencePreset) {
    const next = { ...query, period };
    setQuery(next);
    if (period !== 'custom') load(next);
  }

  function onCustom(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    load(query);
  }

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Audience</h1>
      <LiveLine />
      <Presets chosen={query.period} choose={choose} />
      {query.period === 'custom' ? (
        <CustomPeriod query={query} setQuery={setQuery} onSubmit={onCustom} fieldErrors={fieldErrors} />
      ) : null}
      <Notice kind="error">{error}</Notice>
      {report ? <ReportBody report={report} /> : !error && <p>Loading…</p>}
    </section>
  );
}

/** Visitors in the last few minutes, read again every minute while the view is open. */
function LiveLine() {
  const read = useApiData();
  const [live, setLive] = useState<LiveVisitors | null>(null);

  useEffect(() => {
    const refresh = async () => {
      const { data } = read(await callContract(audienceLiveContract, {}));
      if (data) setLive(data);
    };
    void refresh();
    const timer = setInterval(() => void refresh(), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [read]);

  return (
    <p className="cs-live" role="status">
      {live ? (
        <>
          <strong>{live.visitors}</strong> {live.visitors === 1 ? 'visitor' : 'visitors'} in the last{' '}
          {LIVE_WINDOW_MINUTES} minutes ({live.views} page views)
        </>
      ) : (
        `Visitors in the last ${LIVE_WINDOW_MINUTES} minutes: loading…`
      )}
    </p>
  );
}

function Presets({ chosen, choose }: { chosen: AudiencePreset; choose: (period: AudiencePreset) => void }) {
  return (
    <div className="cs-presets" role="group" aria-label="Period">
      {audiencePresets.map((p) => (
        <button
          key={p}
          type="button"
          aria-pressed={chosen === p}
          className={chosen === p ? '' : 'cs-secondary'}
          onClick={() => choose(p)}
        >
          {presetLabel[p]}
        </button>
      ))}
    </div>
  );
}

/** The two dates of a custom period, each with the server's word on it beneath. */
function CustomPeriod({
  query,
  setQuery,
  onSubmit,
  fieldErrors,
}: {
  query: Period;
  setQuery: (query: Period) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  fieldErrors: Record<string, string>;
}) {
  const day = (end: 'from' | 'to', id: string, label: string) => (
    <div className="cs-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={query[end]}
        onChange={(e) => setQuery({ ...query, [end]: e.target.value })}
        aria-invalid={fieldErrors[end] ? true : undefined}
      />
      {fieldErrors[end] ? <p className="cs-field-error">{fieldErrors[end]}</p> : null}
    </div>
  );
  return (
    <form className="cs-filters" onSubmit={onSubmit} aria-label="Custom period" noValidate>
      {day('from', 'aud-from', 'From')}
      {day('to', 'aud-to', 'To')}
      <button type="submit">Show</button>
      <p className="cs-hint">Days are UTC, both ends included, at most {MAX_PERIOD_DAYS} days.</p>
    </form>
  );
}

/** One period's report: its totals against the period before, the daily chart, and where from. */
function ReportBody({ report }: { report: AudienceReport }) {
  const totals = [
    ['Visitors', report.totals.visitors, report.previousTotals.visitors, String],
    ['Page views', report.totals.views, report.previousTotals.views, String],
    ['Sign-ups', report.totals.signups, report.previousTotals.signups, String],
    ['Conversion', report.totals.conversion, report.previousTotals.conversion, percent],
  ] as const;
  return (
    <>
      <p className="cs-hint">
        {report.period.from} to {report.period.to} (UTC), compared with {report.previousPeriod.from} to{' '}
        {report.previousPeriod.to}.
      </p>
      <ul className="cs-totals" aria-label="Totals">
        {totals.map(([label, now, before, show]) => (
          <li key={label}>
            <span className="cs-total-label">{label}</span>
            <span className="cs-total-value">{show(now)}</span>
            <span className="cs-total-change">
              {change(now, before)} <span className="cs-muted">(before: {show(before)})</span>
            </span>
          </li>
        ))}
      </ul>
      <DailyChart series={report.series} />
      <TopLists report={report} />
      <p className="cs-hint">
        Languages: visits by the language of the page (its address: /es/, /pt-br/, /zh-cn/, /ar/; English at /),
        sign-ups by the language each person signed up in (people erased since are not counted here).
        {unreviewedLocales().length > 0
          ? ` Draft translations, not reviewed by a native speaker: ${namesOf(unreviewedLocales())}.`
          : ''}
      </p>
      <p className="cs-credits">
        IP geolocation by DB-IP (dbip.com), CC BY 4.0. This product includes GeoLite2 data created by MaxMind, available
        from https://www.maxmind.com.
      </p>
    </>
  );
}

/** Where the period's visitors came from: countries, pages, referrers, languages and invites. */
function TopLists({ report }: { report: AudienceReport }) {
  return (
    <div className="cs-lists">
      <TopList
        title="Countries"
        rows={report.countries.map((c) => ({
          key: c.country,
          label: c.country,
          visitors: c.visitors,
          views: c.views,
          detail: c.cities.map((city) => `${city.city} (${city.visitors})`).join(', '),
        }))}
      />
      <TopList
        title="Pages"
        rows={report.pages.map((p) => ({ key: p.path, label: p.path, visitors: p.visitors, views: p.views }))}
      />
      <TopList
        title="Referrers"
        rows={report.referrers.map((r) => ({ key: r.host, label: r.host, visitors: r.visitors, views: r.views }))}
      />
      <TopList
        title="Languages"
        rows={report.locales.map((l) => ({
          key: l.locale,
          label: languageName(l.locale),
          visitors: l.visitors,
          views: l.views,
          detail: `${l.signups} sign-up${l.signups === 1 ? '' : 's'}`,
        }))}
      />
      <InviteSignups invites={report.invites} />
    </div>
  );
}

function TopList({
  title,
  rows,
}: {
  title: string;
  rows: { key: string; label: string; visitors: number; views: number; detail?: string }[];
}) {
  return (
    <div className="cs-top">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="cs-muted">Nothing in this period.</p>
      ) : (
        <table className="cs-table">
          <caption className="cs-visually-hidden">{title} by visitors</caption>
          <thead>
            <tr>
              <th scope="col">{title.replace(/ies$/, 'y').replace(/s$/, '')}</th>
              <th scope="col">Visitors</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">
                  {r.label}
                  {r.detail ? <span className="cs-hint cs-cities">{r.detail}</span> : null}
                </th>
                <td>{r.visitors}</td>
                <td>{r.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
