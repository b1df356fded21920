import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dkimRecord, dkimSigningOf, readDkimKey } from './dkim.ts';
import { smtpMailer } from './mailer.ts';

const FROM = 'Diamond Hand <hello@dh.example>';
const pemOf = (bits: number) =>
  generateKeyPairSync('rsa', { modulusLength: bits }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let dir: string;
let keyFile: string;
let pem: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-dkim-'));
  pem = pemOf(2048);
  keyFile = path.join(dir, 'dkim.pem');
  writeFileSync(keyFile, pem, { mode: 0o600 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envError = (vars: Record<string, string>): string => {
  try {
    loadEnv(vars);
    return '';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('DKIM settings, checked at start', () => {
  it("takes the key as a path or as the PEM itself (line breaks written \\n), and signs for MAIL_FROM's domain by default", () => {
    const byPath = loadEnv({ DKIM_PRIVATE_KEY: keyFile, DKIM_SELECTOR: 'dh2026', MAIL_FROM: FROM });
    const inline = loadEnv({
      DKIM_PRIVATE_KEY: pem.trim().replace(/\n/g, '\\n'),
      DKIM_SELECTOR: 'dh2026',
      MAIL_FROM: FROM,
    });
    expect(byPath.DKIM_PRIVATE_KEY).toBe(inline.DKIM_PRIVATE_KEY);
    expect(dkimSigningOf(byPath)).toEqual({
      domainName: 'dh.example',
      keySelector: 'dh2026',
      privateKey: byPath.DKIM_PRIVATE_KEY,
    });
    expect(dkimSigningOf({ ...byPath, DKIM_DOMAIN: 'mail.dh.example' })?.domainName).toBe('mail.dh.example');
    expect(dkimSigningOf(loadEnv({}))).toBeUndefined();
  });

  it('refuses a missing selector, a bad key, a short key, and a selector without a key, in words that never quote the key', () => {
    expect(envError({ DKIM_PRIVATE_KEY: keyFile })).toMatch(/DKIM_SELECTOR: must be set when DKIM_PRIVATE_KEY is/);
    expect(envError({ DKIM_PRIVATE_KEY: path.join(dir, 'nope.pem'), DKIM_SELECTOR: 's1' })).toMatch(
      /DKIM_PRIVATE_KEY: is neither a PEM private key .* nor the path of a readable file/,
    );
    const garbled = '-----BEGIN PRIVATE KEY-----\\nbm90IGEga2V5\\n-----END PRIVATE KEY-----';
    const garbledError = envError({ DKIM_PRIVATE_KEY: garbled, DKIM_SELECTOR: 's1' });
    expect(garbledError).toMatch(/DKIM_PRIVATE_KEY: is not a private key in PEM form/);
    expect(garbledError).not.toContain('bm90IGEga2V5');
    expect(envError({ DKIM_PRIVATE_KEY: pemOf(512), DKIM_SELECTOR: 's1' })).toMatch(
      /is a 512-bit RSA key; receivers ignore DKIM keys under 1024 bits/,
    );
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(envError({ DKIM_PRIVATE_KEY: ed, DKIM_SELECTOR: 's1' })).toMatch(/must be an RSA key/);
    expect(envError({ DKIM_SELECTOR: 's1' })).toMatch(
      /DKIM_PRIVATE_KEY: must be set when DKIM_SELECTOR or DKIM_DOMAIN is/,
    );
    expect(envError({ DKIM_PRIVATE_KEY: keyFile, DKIM_SELECTOR: 'not a label!' })).toMatch(
      /DKIM_SELECTOR: must be a DNS label/,
    );
  });
});

describe('DKIM signing over real SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('signs what the mail server receives: it verifies against the published key, and a tampered body does not', async () => {
    const env = loadEnv({ DKIM_PRIVATE_KEY: keyFile, DKIM_SELECTOR: 'dh2026', MAIL_FROM: FROM });
    const signing = dkimSigningOf(env);
    const mailer = smtpMailer(sink.url, env.MAIL_FROM, 1, signing);
    await mailer.send({
      to: 'pat@example.com',
      subject: 'The presale opens',
      text: 'It opens at noon.',
      html: '<p>It opens at noon.</p>',
      headers: { 'List-Unsubscribe': '<https://dh.example/u>' },
      envelopeFrom: 'bounces+x@dh.example',
    });
    mailer.close();
    const [raw] = sink.raw;
    if (!raw) throw new Error('no message');

    const published = dkimRecord(readDkimKey(keyFile).key);
    const asked: string[] = [];
    // The DNS a receiver would ask: only our selector's record exists.
    const resolver = async (name: string, type: string) => {
      asked.push(`${type} ${name}`);
      if (type === 'TXT' && name === 'dh2026._domainkey.dh.example') return [[published]];
      throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
    };
    const good = await dkimVerify(raw, { resolver });
    expect(asked).toContain('TXT dh2026._domainkey.dh.example');
    expect(good.results).toHaveLength(1);
    expect(good.results[0]?.signingDomain).toBe('dh.example');
    expect(good.results[0]?.selector).toBe('dh2026');
    expect(good.results[0]?.status.result).toBe('pass');

    const tampered = Buffer.from(raw.toString('latin1').replace('It opens at noon.', 'It opens at once.'), 'latin1');
    expect(tampered.equals(raw)).toBe(false);
    const bad = await dkimVerify(tampered, { resolver });
    expect(bad.results[0]?.status.result).not.toBe('pass');
    expect(bad.results[0]?.status.comment).toMatch(/body hash/);

    // Another key published under the selector (a rotated or wrong record): the signature fails.
    const other = dkimRecord(readDkimKey(pemOf(2048)).key);
    const wrongKey = await dkimVerify(raw, {
      resolver: async (name: string, type: string) => (type === 'TXT' && name.startsWith('dh2026.') ? [[other]] : []),
    });
    expect(wrongKey.results[0]?.status.result).toBe('fail');
  });

  // RFC 8058 §4 wants both unsubscribe headers signed; Gmail reads Feedback-ID only when signed.
  it('signs the list headers and Feedback-ID: changing, removing or adding one fails the signature', async () => {
    const env = loadEnv({ DKIM_PRIVATE_KEY: keyFile, DKIM_SELECTOR: 'dh2026', MAIL_FROM: FROM });
    const mailer = smtpMailer(sink.url, env.MAIL_FROM, 1, dkimSigningOf(env));
    const before = sink.raw.length;
    await mailer.send({
      to: 'pat@example.com',
      // Words that are not ASCII, spaces at line ends and a long folded header: the canonical forms.
      subject: 'يبدأ البيع المسبق — 预售开始 \t soon',
      text: 'It opens at noon.  \n\twith tabs\t \n.a dot first\nمرحبا 你好\n\n\n',
      html: '<p>It opens at noon.</p>',
      headers: {
        'List-Unsubscribe': `<https://dh.example/unsubscribe?id=${'a'.repeat(60)}&sig=${'b'.repeat(43)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        'Feedback-ID': 'b1:broadcast:diamond-hand:dh.example',
        'List-Id': 'Broadcast <bb1.dh.example>',
      },
      envelopeFrom: 'bounces+x@dh.example',
    });
    mailer.close();
    const raw = sink.raw[before];
    if (!raw) throw new Error('no message');
    const published = dkimRecord(readDkimKey(keyFile).key);
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === 'dh2026._domainkey.dh.example') return [[published]];
      throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
    };
    const verdict = async (message: string) =>
      (await dkimVerify(Buffer.from(message, 'latin1'), { resolver })).results[0]?.status.result;
    const text = raw.toString('latin1');
    expect(await verdict(text)).toBe('pass');

    const field = (name: string) => new RegExp(`^${name}:.*\\r\\n(?:[ \\t].*\\r\\n)*`, 'im');
    const headers: [string, string][] = [
      ['List-Unsubscribe', 'List-Unsubscribe: <https://evil.example/u>\r\n'],
      ['List-Unsubscribe-Post', 'List-Unsubscribe-Post: List-Unsubscribe=Two-Clicks\r\n'],
      ['Feedback-ID', 'Feedback-ID: x:broadcast:diamond-hand:dh.example\r\n'],
      ['List-Id', 'List-Id: Other <other.dh.example>\r\n'],
    ];
    for (const [name, changed] of headers) {
      expect(text, name).toMatch(field(name));
      expect(await verdict(text.replace(field(name), changed)), `${name} changed`).toBe('fail');
      expect(await verdict(text.replace(field(name), '')), `${name} removed`).toBe('fail');
    }
    // Added above ours (where a relay adds fields): an oversigned name fails; Feedback-ID does not
    // (that is what SES does, and a second one does not change which sender Gmail reports to).
    for (const added of [
      'List-Unsubscribe: <https://evil.example/u>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'List-Id: Other <other.dh.example>',
      'From: Someone Else <ceo@dh.example>',
      'Reply-To: thief@evil.example',
    ])
      expect(await verdict(`${added}\r\n${text}`), `${added} added`).toBe('fail');
    expect(await verdict(`Feedback-ID: 1.eu-west-1.abc:AmazonSES\r\n${text}`)).toBe('pass');

    const signature = /^DKIM-Signature:[^]*?(?=\r\n\S)/m.exec(text)?.[0] ?? '';
    const h = (/\bh=([^;]+);/.exec(signature.replace(/\r\n[ \t]/g, ' '))?.[1] ?? '').split(':').map((x) => x.trim());
    // Each present once and listed twice (oversigned), but Feedback-ID, which SES adds its own of.
    for (const name of ['from', 'to', 'subject', 'list-id', 'list-unsubscribe', 'list-unsubscribe-post'])
      expect(
        h.filter((x) => x === name),
        name,
      ).toHaveLength(2);
    expect(h.filter((x) => x === 'feedback-id')).toHaveLength(1);
    // Absent, listed once: none may be added.
    expect(h).toContain('reply-to');
    expect(h).toContain('cc');
  });
});
