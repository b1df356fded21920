import type { KeyObject } from 'node:crypto';
import { dkimPublicKeyBase64 } from './dkim.ts';
import { bareHost, dmarcRecord, isLocalRelay, spfMechanism, zoneTxt } from './dns-records.ts';

// `npm run mail:check` (scripts/mail-check.ts): the DNS records the configured domains should
// publish (SPF, DKIM, DMARC, the bounce domain's MX), and whether what DNS holds now matches.
// Pure but for the injected lookups, so tests bring a fake DNS. docs/decisions/0040.

export interface MailDnsSettings {
  /** MAIL_FROM's domain: what DMARC judges and aligns with. */
  fromDomain: string;
  /** BOUNCE_DOMAIN (or the From domain): the envelope sender's, so the domain SPF is checked on. */
  bounceDomain: string;
  /** SMTP_URL's host, when set: the server that sends for us. */
  smtpHost?: string | undefined;
  /** BOUNCE_IMAP_URL's host, when set: where bounces are read. */
  imapHost?: string | undefined;
  dkim?: { selector: string; domain: string; key: KeyObject } | undefined;
}

/** The lookups, as node:dns/promises has them (a Resolver), and as a test fakes them. */
export interface DnsLookups {
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolveNs(name: string): Promise<string[]>;
}

/**
 * Asked first: the name servers of the com zone exist on any resolver that reaches the internet.
 * A resolver cut off from it may answer "no such name" for everything (as this project's build
 * machines do), which would read as "every record missing" — so without this answer nothing is judged.
 */
const CANARY = 'com';

type Verdict = 'matches' | 'differs' | 'missing' | 'unreachable' | 'not-signed-here';

export interface RecordCheck {
  what: 'SPF' | 'DKIM' | 'DMARC' | 'Bounce MX';
  type: 'TXT' | 'MX';
  name: string;
  /** What to publish: the record's value, or (inWords) a sentence saying what to publish. */
  publish: string;
  /** `publish` says in words what to publish: there is no record the app can write for it. */
  inWords?: true;
  verdict: Verdict;
  /** The verdict in words, naming what was found. */
  words: string;
}

/** DNS errors that mean "no such record" rather than "no answer at all". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

type Lookup<T> = { ok: T } | { absent: true } | { unreachable: string };

async function ask<T>(fn: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { ok: await fn() };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && ABSENT.has(code)) return { absent: true };
    return { unreachable: typeof code === 'string' ? code : 'no answer' };
  }
}

const unreachable = (code: string) =>
  `DNS could not be reached (${code}): this machine may have no internet, or no resolver; the record above is what to publish.`;

/** Tags of a DKIM or DMARC record ("v=DKIM1; p=…"), names lower-cased. */
function tags(record: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) m.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return m;
}

async function checkSpf(s: MailDnsSettings, dns: DnsLookups): Promise<RecordCheck> {
  const mechanism = spfMechanism(s.smtpHost);
  const local = s.smtpHost && isLocalRelay(s.smtpHost) ? bareHost(s.smtpHost) : null;
  const base = {
    what: 'SPF' as const,
    type: 'TXT' as const,
    name: s.bounceDomain,
    ...(mechanism
      ? { publish: `v=spf1 ${mechanism} ~all` }
      : {
          inWords: true as const,
          publish: local
            ? `one SPF record allowing the server your relay (${local}, on this machine or network) sends from: your provider's include (as its documentation gives it), or ip4:/ip6: with the relay's public address, then ~all`
            : `one SPF record allowing your SMTP provider, as its documentation gives it (SMTP_URL is unset: the app writes .eml files and sends nothing)`,
        }),
  };
  const found = await ask(() => dns.resolveTxt(s.bounceDomain));
  if ('unreachable' in found) return { ...base, verdict: 'unreachable', words: unreachable(found.unreachable) };
  const spf = ('ok' in found ? found.ok : []).map((chunks) => chunks.join('')).filter((t) => /^v=spf1(\s|$)/i.test(t));
  if (spf.length === 0)
    return {
      ...base,
      verdict: 'missing',
      words: `No SPF record at ${s.bounceDomain}: receivers cannot tell our server may send for it.`,
    };
  if (spf.length > 1)
    return {
      ...base,
      verdict: 'differs',
      words: `${spf.length} SPF records at ${s.bounceDomain}: SPF then fails for every email (RFC 7208 §4.5); merge them into one.`,
    };
  const [record = ''] = spf;
  const terms = record.toLowerCase().split(/\s+/);
  if (!/^[-~]all$/.test(terms.at(-1) ?? '')) {
    return {
      ...base,
      verdict: 'differs',
      words: `The SPF record at ${s.bounceDomain} ("${record}") does not end in ~all or -all, so it allows anyone.`,
    };
  }
  if (!mechanism)
    return {
      ...base,
      verdict: 'matches',
      words: local
        ? `An SPF record is published ("${record}"); SMTP_URL is a relay on this machine or network, so which server it must allow is unknown here: check it names the one your relay sends from.`
        : `An SPF record is published ("${record}"); SMTP_URL is unset, so which server it must allow is unknown here.`,
    };
  if (!terms.includes(mechanism.toLowerCase())) {
    return {
      ...base,
      verdict: 'differs',
      words: `The SPF record at ${s.bounceDomain} ("${record}") does not name ${mechanism}: mail from our SMTP server fails SPF.`,
    };
  }
  return { ...base, verdict: 'matches', words: `Matches: "${record}".` };
}

async function checkDkim(s: MailDnsSettings, dns: DnsLookups): Promise<RecordCheck> {
  if (!s.dkim) {
    return {
      what: 'DKIM',
      type: 'TXT',
      name: `<selector>._domainkey.${s.fromDomain}`,
      inWords: true,
      publish: 'the record your SMTP provider shows (it signs), or set DKIM_PRIVATE_KEY and DKIM_SELECTOR to sign here',
      verdict: 'not-signed-here',
      words: 'The app does not sign (DKIM_PRIVATE_KEY unset): your provider must, or DMARC has only SPF to go on.',
    };
  }
  const key = dkimPublicKeyBase64(s.dkim.key);
  const name = `${s.dkim.selector}._domainkey.${s.dkim.domain}`;
  const base = { what: 'DKIM' as const, type: 'TXT' as const, name, publish: `v=DKIM1; k=rsa; p=${key}` };
  const found = await ask(() => dns.resolveTxt(name));
  if ('unreachable' in found) return { ...base, verdict: 'unreachable', words: unreachable(found.unreachable) };
  // A long key is split into 255-byte strings in one TXT record: joined, they are the record.
  const records = ('ok' in found ? found.ok : []).map((chunks) => chunks.join('')).filter((t) => tags(t).has('p'));
  if (records.length === 0)
    return { ...base, verdict: 'missing', words: `No DKIM key at ${name}: every signature we make fails to verify.` };
  const published = records.map((r) => tags(r).get('p') ?? '');
  if (published.includes(key)) {
    const alignment =
      s.dkim.domain === s.fromDomain ||
      s.fromDomain.endsWith(`.${s.dkim.domain}`) ||
      s.dkim.domain.endsWith(`.${s.fromDomain}`);
    return alignment
      ? { ...base, verdict: 'matches', words: 'Matches: the published key is the public half of DKIM_PRIVATE_KEY.' }
      : {
          ...base,
          verdict: 'differs',
          words: `The key matches, but ${s.dkim.domain} is not aligned with MAIL_FROM's ${s.fromDomain}: DMARC ignores this signature.`,
        };
  }
  if (published.every((p) => p === ''))
    return { ...base, verdict: 'differs', words: `The key at ${name} is revoked (empty p=).` };
  return {
    ...base,
    verdict: 'differs',
    words: `The key published at ${name} is not the public half of DKIM_PRIVATE_KEY: signatures fail.`,
  };
}

async function checkDmarc(s: MailDnsSettings, dns: DnsLookups): Promise<RecordCheck> {
  const name = `_dmarc.${s.fromDomain}`;
  const base = { what: 'DMARC' as const, type: 'TXT' as const, name, publish: dmarcRecord(s.fromDomain) };
  const found = await ask(() => dns.resolveTxt(name));
  if ('unreachable' in found) return { ...base, verdict: 'unreachable', words: unreachable(found.unreachable) };
  const records = ('ok' in found ? found.ok : [])
    .map((chunks) => chunks.join(''))
    .filter((t) => /^v=DMARC1\s*(;|$)/i.test(t));
  if (records.length === 0)
    return {
      ...base,
      verdict: 'missing',
      words: `No DMARC record at ${name}: Gmail and Yahoo require one of bulk senders since 2024.`,
    };
  if (records.length > 1)
    return {
      ...base,
      verdict: 'differs',
      words: `${records.length} DMARC records at ${name}: receivers then ignore DMARC (RFC 7489 §6.6.3); keep one.`,
    };
  const t = tags(records[0] ?? '');
  const policy = t.get('p');
  if (!policy || !['none', 'quarantine', 'reject'].includes(policy.toLowerCase())) {
    return {
      ...base,
      verdict: 'differs',
      words: `The DMARC record at ${name} has no valid p= (none, quarantine or reject).`,
    };
  }
  if (!t.get('rua'))
    return {
      ...base,
      verdict: 'differs',
      words: `The DMARC record at ${name} has no rua=: nobody receives the reports that tell whether mail passes.`,
    };
  const strictSpf = t.get('aspf') === 's' && s.bounceDomain !== s.fromDomain;
  if (strictSpf) {
    return {
      ...base,
      verdict: 'differs',
      words: `aspf=s, but the envelope sender is at ${s.bounceDomain}, not ${s.fromDomain}: SPF never aligns; use aspf=r.`,
    };
  }
  const next =
    policy.toLowerCase() === 'none'
      ? ' Once the reports show every source passing (about two weeks), move to p=quarantine.'
      : '';
  return { ...base, verdict: 'matches', words: `Matches: p=${policy}, reports to ${t.get('rua') ?? ''}.${next}` };
}

async function checkBounceMx(s: MailDnsSettings, dns: DnsLookups): Promise<RecordCheck> {
  const publish = `the mail server holding the bounce mailbox${s.imapHost ? ` (BOUNCE_IMAP_URL: ${s.imapHost})` : ''}; it must accept every bounces+<id>@${s.bounceDomain} (VERP: a "+" sub-address delimiter, e.g. Postfix recipient_delimiter = +)`;
  const base = {
    what: 'Bounce MX' as const,
    type: 'MX' as const,
    name: s.bounceDomain,
    publish,
    inWords: true as const,
  };
  const found = await ask(() => dns.resolveMx(s.bounceDomain));
  if ('unreachable' in found) return { ...base, verdict: 'unreachable', words: unreachable(found.unreachable) };
  const mx = 'ok' in found ? [...found.ok].sort((a, b) => a.priority - b.priority) : [];
  if (mx.length === 0)
    return {
      ...base,
      verdict: 'missing',
      words: `No MX at ${s.bounceDomain}: bounces sent to our envelope senders are lost (and some receivers refuse mail from a domain with no MX).`,
    };
  const hosts = mx.map((m) => `${m.exchange} (${m.priority})`).join(', ');
  return {
    ...base,
    verdict: 'matches',
    words: `MX published: ${hosts}. Make sure it delivers bounces+… to the bounce mailbox${s.imapHost ? '' : ' (BOUNCE_IMAP_URL is unset: nothing reads it)'}.`,
  };
}

/** Every record, checked against DNS in turn (none, when DNS does not reach the internet). */
export async function checkMailDns(s: MailDnsSettings, dns: DnsLookups): Promise<RecordCheck[]> {
  const canary = await ask(() => dns.resolveNs(CANARY));
  if (!('ok' in canary) || canary.ok.length === 0) {
    const code = 'unreachable' in canary ? canary.unreachable : 'it finds no name servers even for com';
    // What to publish is still worth printing; every lookup would only repeat the same non-answer.
    const fail = () => Promise.reject(Object.assign(new Error(code), { code }));
    const cut: DnsLookups = { resolveTxt: fail, resolveMx: fail, resolveNs: fail };
    return [await checkSpf(s, cut), await checkDkim(s, cut), await checkDmarc(s, cut), await checkBounceMx(s, cut)];
  }
  return [await checkSpf(s, dns), await checkDkim(s, dns), await checkDmarc(s, dns), await checkBounceMx(s, dns)];
}

const MARK: Record<Verdict, string> = {
  matches: 'OK',
  differs: 'DIFFERS',
  missing: 'MISSING',
  unreachable: 'NOT CHECKED',
  'not-signed-here': 'NOTE',
};

/**
 * The report as printed: for each record, what to publish — a record as a zone file's line (name,
 * type, its strings quoted), a sentence when there is no record to write — then the verdict.
 */
export function formatMailCheck(checks: readonly RecordCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.what}  [${MARK[c.verdict]}]`);
    if (c.inWords) lines.push(`  ${c.name}  ${c.type}: publish ${c.publish}`);
    else {
      lines.push(`  ${c.name}  ${c.type}  ${zoneTxt(c.publish)}`);
      if (Buffer.byteLength(c.publish) > 255)
        lines.push(
          '  (one record in strings of at most 255 bytes, as a zone file writes it; a DNS host that takes the value whole wants them joined, without the quotes)',
        );
    }
    lines.push(`  ${c.words}`);
    lines.push('');
  }
  return lines.join('\n');
}
