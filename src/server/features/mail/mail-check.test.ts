import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { spf } from 'mailauth/lib/spf/index.js';
import { describe, expect, it } from 'vitest';
import { dkimPublicKeyBase64 } from './dkim.ts';
import { dmarcRecord, isLocalRelay, spfMechanism, zoneTxt } from './dns-records.ts';
import { checkMailDns, formatMailCheck, type DnsLookups, type MailDnsSettings } from './mail-check.ts';

const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const p = dkimPublicKeyBase64(key);

const settings: MailDnsSettings = {
  fromDomain: 'dh.example',
  bounceDomain: 'bounces.dh.example',
  smtpHost: 'smtp.postmarkapp.com',
  imapHost: 'imap.dh.example',
  dkim: { selector: 'dh2026', domain: 'dh.example', key },
};

const nxdomain = () => Promise.reject(Object.assign(new Error('queryTxt ENOTFOUND'), { code: 'ENOTFOUND' }));

/** A DNS holding these TXT and MX records (and the com zone's name servers, as the internet's does). */
function fakeDns(
  txt: Record<string, string[][]>,
  mx: Record<string, { exchange: string; priority: number }[]> = {},
): DnsLookups {
  return {
    resolveTxt: (name) => (txt[name] ? Promise.resolve(txt[name]) : nxdomain()),
    resolveMx: (name) => (mx[name] ? Promise.resolve(mx[name]) : nxdomain()),
    resolveNs: (name) => (name === 'com' ? Promise.resolve(['a.gtld-servers.net']) : nxdomain()),
  };
}

// As a zone publishes a 2048-bit key: in strings of at most 255 characters.
const chunked = (record: string) => record.match(/.{1,255}/g) ?? [];

const published = {
  'bounces.dh.example': [['v=spf1 include:spf.mtasv.net ~all'], ['google-site-verification=abc']],
  'dh2026._domainkey.dh.example': [chunked(`v=DKIM1; k=rsa; p=${p}`)],
  '_dmarc.dh.example': [['v=DMARC1; p=none; rua=mailto:dmarc@dh.example']],
};
const mx = { 'bounces.dh.example': [{ exchange: 'mx.dh.example', priority: 10 }] };

describe('mail:check: the records to publish', () => {
  it("says SPF on the envelope (bounce) domain with the provider's include, the DKIM key from the private key, DMARC at p=none with reports, and the bounce MX", async () => {
    const checks = await checkMailDns(settings, fakeDns({}));
    const byWhat = Object.fromEntries(checks.map((c) => [c.what, c]));
    expect(byWhat.SPF).toMatchObject({
      name: 'bounces.dh.example',
      type: 'TXT',
      publish: 'v=spf1 include:spf.mtasv.net ~all',
    });
    expect(byWhat.DKIM).toMatchObject({ name: 'dh2026._domainkey.dh.example', publish: `v=DKIM1; k=rsa; p=${p}` });
    expect(byWhat.DMARC).toMatchObject({
      name: '_dmarc.dh.example',
      publish: 'v=DMARC1; p=none; rua=mailto:dmarc@dh.example; adkim=r; aspf=r',
    });
    expect(byWhat['Bounce MX']?.publish).toMatch(/imap\.dh\.example.*bounces\+<id>@bounces\.dh\.example/);
    expect(spfMechanism('smtp.eu.mailgun.org')).toBe('include:mailgun.org');
    expect(spfMechanism('email-smtp.eu-west-1.amazonaws.com')).toBe('include:amazonses.com');
    expect(spfMechanism('relay.myhost.example')).toBe('a:relay.myhost.example');
    expect(dmarcRecord('x.example')).toBe('v=DMARC1; p=none; rua=mailto:dmarc@x.example; adkim=r; aspf=r');
  });
});

describe('mail:check: what DNS holds, compared', () => {
  it('finds every record matching (a key split into 255-character strings, other TXT records beside SPF)', async () => {
    const checks = await checkMailDns(settings, fakeDns(published, mx));
    expect(checks.map((c) => [c.what, c.verdict])).toEqual([
      ['SPF', 'matches'],
      ['DKIM', 'matches'],
      ['DMARC', 'matches'],
      ['Bounce MX', 'matches'],
    ]);
    expect(checks.find((c) => c.what === 'DMARC')?.words).toMatch(/p=none.*move to p=quarantine/);
    expect(formatMailCheck(checks)).toMatch(
      /^SPF {2}\[OK\]\n {2}bounces\.dh\.example {2}TXT {2}"v=spf1 include:spf\.mtasv\.net ~all"/,
    );
  });

  it('says in words what differs or is missing', async () => {
    const other = dkimPublicKeyBase64(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey);
    const checks = await checkMailDns(
      settings,
      fakeDns({
        'bounces.dh.example': [['v=spf1 include:spf.mtasv.net ~all'], ['v=spf1 a -all']],
        'dh2026._domainkey.dh.example': [[`v=DKIM1; k=rsa; p=${other}`]],
        '_dmarc.dh.example': [['v=DMARC1; p=none']],
      }),
    );
    const words = Object.fromEntries(checks.map((c) => [c.what, `${c.verdict}: ${c.words}`]));
    expect(words.SPF).toMatch(/^differs: 2 SPF records at bounces\.dh\.example: SPF then fails for every email/);
    expect(words.DKIM).toMatch(
      /^differs: The key published at dh2026\._domainkey\.dh\.example is not the public half of DKIM_PRIVATE_KEY/,
    );
    expect(words.DMARC).toMatch(/^differs: .* has no rua=/);
    expect(words['Bounce MX']).toMatch(/^missing: No MX at bounces\.dh\.example: bounces .* are lost/);

    const again = await checkMailDns(
      settings,
      fakeDns(
        {
          'bounces.dh.example': [['v=spf1 a:elsewhere.example -all']],
          '_dmarc.dh.example': [['v=DMARC1; p=reject; rua=mailto:d@dh.example; aspf=s']],
        },
        mx,
      ),
    );
    const more = Object.fromEntries(again.map((c) => [c.what, `${c.verdict}: ${c.words}`]));
    expect(more.SPF).toMatch(/^differs: .* does not name include:spf\.mtasv\.net/);
    expect(more.DKIM).toMatch(/^missing: No DKIM key at dh2026\._domainkey\.dh\.example/);
    expect(more.DMARC).toMatch(/^differs: aspf=s, but the envelope sender is at bounces\.dh\.example/);
  });

  it('says DNS could not be reached — refused, timed out, or answering "no such name" even for com — and judges nothing', async () => {
    const refused: DnsLookups = {
      resolveTxt: nxdomain,
      resolveMx: nxdomain,
      resolveNs: () => Promise.reject(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })),
    };
    const cutOff: DnsLookups = { ...fakeDns(published, mx), resolveNs: nxdomain };
    for (const dns of [refused, cutOff]) {
      const checks = await checkMailDns(settings, dns);
      expect(checks.map((c) => c.verdict)).toEqual(['unreachable', 'unreachable', 'unreachable', 'unreachable']);
      expect(checks[0]?.words).toMatch(
        /^DNS could not be reached \((ECONNREFUSED|it finds no name servers even for com)\): this machine may have no internet/,
      );
    }
    // One lookup timing out after the canary answered: that record alone is not judged.
    const slow = fakeDns(published, mx);
    slow.resolveMx = () => Promise.reject(Object.assign(new Error('x'), { code: 'ETIMEOUT' }));
    const checks = await checkMailDns(settings, slow);
    expect(checks.map((c) => c.verdict)).toEqual(['matches', 'matches', 'matches', 'unreachable']);
  });

  it('npm run mail:check refuses a bad key in words, with no stack trace and without quoting it', async () => {
    const run = promisify(execFile);
    const result = await run(process.execPath, ['--import', 'tsx', 'scripts/mail-check.ts'], {
      env: {
        PATH: process.env.PATH,
        MAIL_FROM: 'DH <hello@dh.example>',
        DKIM_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nc2VjcmV0\\n-----END PRIVATE KEY-----',
        DKIM_SELECTOR: 's1',
      },
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect('code' in result ? result.code : 0).toBe(3);
    expect(result.stderr).toMatch(/DKIM_PRIVATE_KEY: is not a private key in PEM form/);
    expect(result.stderr + result.stdout).not.toMatch(/\n\s+at |c2VjcmV0/);
  });
});

/**
 * The TXT records a printed report holds, as BIND reads them: each `<name>  TXT  "…"` line loaded
 * into a zone by named-checkzone (bind9-utils), which refuses what a DNS server would (a string
 * over 255 bytes, bad quoting), and read back from its canonical dump, strings joined.
 */
async function loadedByBind(printed: string): Promise<Map<string, string[]>> {
  const lines = printed
    .split('\n')
    .filter((l) => /^ {2}\S+ {2}TXT {2}"/.test(l))
    .map((l) => l.trim());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-zone-'));
  try {
    const file = path.join(dir, 'dh.example.zone');
    // $ORIGIN . : the printed names are whole names (without the final dot).
    writeFileSync(
      file,
      [
        '$ORIGIN .',
        '$TTL 300',
        'dh.example IN SOA ns.dh.example. hostmaster.dh.example. 1 3600 600 86400 300',
        'dh.example IN NS ns.dh.example.',
        'ns.dh.example IN A 192.0.2.53',
        ...lines,
        '',
      ].join('\n'),
    );
    const { stdout } = await promisify(execFile)('named-checkzone', ['-D', '-o', '-', 'dh.example', file]).catch(
      (e: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`named-checkzone refused the printed records: ${e.stdout ?? ''}${e.stderr ?? e.message}`);
      },
    );
    const records = new Map<string, string[]>();
    for (const line of stdout.split('\n')) {
      const m = /^(\S+)\.\s+\d+\s+IN\s+TXT\s+(.*)$/.exec(line);
      if (!m?.[1] || m[2] === undefined) continue;
      const value = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)]
        .map((q) =>
          Buffer.from(
            (q[1] ?? '')
              .replace(/\\(\d{3})/g, (_, d: string) => String.fromCharCode(Number(d)))
              .replace(/\\(.)/g, '$1'),
            'latin1',
          ).toString('utf8'),
        )
        .join('');
      records.set(m[1], [...(records.get(m[1]) ?? []), value]);
    }
    return records;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What an SPF verifier (mailauth's, RFC 7208 check_host) says of mail from `ip`, given these TXT records. */
async function spfFrom(ip: string, txt: Map<string, string[]>, a: Record<string, string[]> = {}): Promise<string> {
  const resolver = async (name: string, type: string) => {
    const found = type === 'TXT' ? txt.get(name)?.map((v) => [v]) : type === 'A' ? a[name] : undefined;
    if (found) return found;
    throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
  };
  const r = await spf({ sender: 'bounces+x@bounces.dh.example', ip, helo: 'out.dh.example', mta: 'mx.test', resolver });
  return r.status.result;
}

// BIND's zone checker (Debian's bind9-utils; .ci/run installs it). Without it the one test that
// loads the printed records into a zone is skipped, and says so.
const NAMED_CHECKZONE = ['/usr/bin/named-checkzone', '/usr/sbin/named-checkzone'].some((p) => existsSync(p));
if (!NAMED_CHECKZONE) {
  console.log(
    "mail:check's zone-file test SKIPPED: named-checkzone is not installed (apt-get install bind9-utils; .ci/run installs it)",
  );
}

describe('mail:check: what it prints, read by real DNS and SPF software', () => {
  it.skipIf(!NAMED_CHECKZONE)(
    'prints each TXT record as a zone file does (strings of at most 255 bytes) and BIND loads it unchanged',
    async () => {
      const checks = await checkMailDns(settings, fakeDns({}));
      const printed = formatMailCheck(checks);
      const loaded = await loadedByBind(printed);
      expect(loaded.get('dh2026._domainkey.dh.example')).toEqual([`v=DKIM1; k=rsa; p=${p}`]);
      expect(loaded.get('_dmarc.dh.example')).toEqual([dmarcRecord('dh.example')]);
      expect(loaded.get('bounces.dh.example')).toEqual(['v=spf1 include:spf.mtasv.net ~all']);
      const dkimLine = printed.split('\n').find((l) => l.includes('_domainkey')) ?? '';
      // A 2048-bit key's record is 410 bytes or so: two strings.
      expect(dkimLine.match(/"[^"]*"/g)?.map((q) => q.length - 2)).toEqual([
        255,
        `v=DKIM1; k=rsa; p=${p}`.length - 255,
      ]);
      expect(zoneTxt('v=spf1 -all')).toBe('"v=spf1 -all"');
      expect(zoneTxt(`${'a'.repeat(255)}b`)).toBe(`"${'a'.repeat(255)}" "b"`);
      expect(zoneTxt('say "hi" \\ é')).toBe('"say \\"hi\\" \\\\ \\195\\169"');
      // Quotes, backslashes and bytes beyond ASCII, split inside a character: BIND reads back the same value.
      const odd = `say "hi" \\ é ${'x'.repeat(249)}é…`;
      expect((await loadedByBind(`  odd.dh.example  TXT  ${zoneTxt(odd)}`)).get('odd.dh.example')).toEqual([odd]);
    },
  );

  it('writes a relay given by address as ip4:/ip6:, and an SPF verifier passes mail from that address', async () => {
    const mapped = new URL('smtp://[::ffff:203.0.113.7]:25').hostname;
    for (const [host, ip] of [
      ['203.0.113.5', '203.0.113.5'],
      [new URL('smtp://[2001:DB8::25]:587').hostname, '2001:db8::25'],
      [mapped, '203.0.113.7'],
      ['relay.myhost.example', '203.0.113.9'],
    ] as const) {
      const checks = await checkMailDns({ ...settings, smtpHost: host }, fakeDns({}));
      const txt = await loadedByBind(formatMailCheck(checks));
      const a = { 'relay.myhost.example': ['203.0.113.9'] };
      expect(await spfFrom(ip, txt, a), `${host}: ${txt.get('bounces.dh.example')?.join()}`).toBe('pass');
      expect(await spfFrom('198.51.100.77', txt, a), host).toBe('softfail');
    }
    expect(spfMechanism('203.0.113.5')).toBe('ip4:203.0.113.5');
    expect(spfMechanism('[2001:db8::25]')).toBe('ip6:2001:db8::25');
  });

  it('for a relay on this machine or network prints no SPF record but says in words what to publish', async () => {
    const hosts = [
      '127.0.0.1',
      'localhost',
      new URL('smtp://[::1]:25').hostname,
      new URL('smtp://[::ffff:127.0.0.1]:25').hostname,
      '10.1.2.3',
      '192.168.1.20',
      'postfix',
      'smtp.internal',
    ];
    for (const host of hosts) {
      expect(isLocalRelay(host), host).toBe(true);
      expect(spfMechanism(host), host).toBeNull();
      const checks = await checkMailDns({ ...settings, smtpHost: host }, fakeDns({}));
      const printed = formatMailCheck(checks);
      expect(printed, host).not.toMatch(/v=spf1/);
      expect((await loadedByBind(printed)).get('bounces.dh.example'), host).toBeUndefined();
      const spfCheck = checks.find((c) => c.what === 'SPF');
      expect(spfCheck?.inWords, host).toBe(true);
      expect(printed).toMatch(
        /bounces\.dh\.example {2}TXT: publish one SPF record allowing the server your relay \(.+, on this machine or network\) sends from: your provider's include .* or ip4:\/ip6: with the relay's public address/,
      );
    }
    for (const host of ['203.0.113.5', 'smtp.postmarkapp.com', '[2001:db8::1]', '8.8.8.8'])
      expect(isLocalRelay(host), host).toBe(false);
    // Published already: it cannot say which server it must allow, and says what to make sure of.
    const [spfCheck] = await checkMailDns(
      { ...settings, smtpHost: '127.0.0.1' },
      fakeDns({ 'bounces.dh.example': [['v=spf1 ip4:203.0.113.5 ~all']] }),
    );
    expect(spfCheck?.words).toMatch(/relay on this machine or network.*check it names the one your relay sends from/);
  });
});
