import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dkimPublicKeyBase64 } from './dkim.ts';
import {
  checkMailDns,
  dmarcRecord,
  formatMailCheck,
  spfMechanism,
  type DnsLookups,
  type MailDnsSettings,
} from './mail-check.ts';

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
