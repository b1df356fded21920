import { generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import MailComposer from 'nodemailer/lib/mail-composer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../lib/escape-html.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dkimRecord, readDkimKey } from './dkim.ts';
import { smtpMailer, type MailMessage } from './mailer.ts';
import { fillMimeTemplate, mimeTemplate, newPlaceholder, type TemplateLink } from './mime-template.ts';

const FROM = 'Diamond Hand <hello@dh.example>';
const LINK =
  'https://dh.example/es/unsubscribe?id=0190abcd-0000-7000-8000-000000000001&sig=abcdefghijklmnopqrstuvwxyz0123456789_-ABCD';

/** An email shaped as a broadcast's: words, then a footer with the recipient's link in both parts. */
const email = (words: string, link: string) => ({
  text: `${words}\n\n--\nYou get this because you signed up.\nStop all emails: ${link}`,
  html: `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body><p>${escapeHtml(words)}</p>\n<p style="font-size:12px">You get this because you signed up.<br><a href="${escapeHtml(link)}" style="color:#24407f">Stop all emails</a></p>\n</body></html>`,
});
const linkOf = (url: string): TemplateLink => ({ text: url, html: escapeHtml(url) });

const BODIES = [
  'Thank you for waiting.  \nTrailing spaces, a tab\t\nand a long line '.concat('x'.repeat(200)),
  'short',
  '谢谢你等待我们。请在购买前阅读常见问题。'.repeat(6),
  'مرحبا بكم في البيع المسبق '.repeat(12),
  'Dots\n.at the start\n=equals= and ünïcode — dashes',
];
const LINKS = [LINK, 'https://x.example/u?id=1&sig=2', `${LINK}${'Z'.repeat(90)}`];
const headers = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  'Feedback-ID': 'b1:broadcast:diamond-hand:dh.example',
  'List-Id': 'Broadcast <bb1.dh.example>',
});

describe('a MIME body built once, filled per recipient', () => {
  it("is the email nodemailer composes from the same text and HTML: same headers, same decoded parts, lines no longer than nodemailer's", async () => {
    const date = new Date('2026-11-28T07:00:00Z');
    for (const words of BODIES) {
      const placeholder = newPlaceholder();
      const shell = email(words, placeholder);
      const template = mimeTemplate(shell.text, shell.html, placeholder, linkOf(LINK));
      for (const url of LINKS) {
        const { text, html } = email(words, url);
        const root = {
          from: FROM,
          to: 'pat@example.com',
          subject: 'Sale — 你好',
          headers: headers(url),
          messageId: '<m1@dh.example>',
          date,
        };
        const composed = await new MailComposer({ ...root, text, html, baseBoundary: template.baseBoundary })
          .compile()
          .build();
        const filled = fillMimeTemplate(template, root, linkOf(url));
        const [a, b] = await Promise.all([simpleParser(composed), simpleParser(filled)]);
        expect(b.text).toBe(a.text);
        expect(b.html).toBe(a.html);
        expect(b.headerLines).toEqual(a.headerLines);
        const longLines = (m: Buffer) =>
          m
            .toString('utf8')
            .split(/\r?\n/)
            .filter((l) => l.length > 78).length;
        expect(longLines(filled)).toBeLessThanOrEqual(longLines(composed));
      }
    }
  });
});

describe('a prebuilt email over real SMTP, DKIM-signed', () => {
  let sink: SmtpSink;
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('is signed over the same header fields as a composed one, verifies, and fails once its link is changed', async () => {
    const mailer = smtpMailer(sink.url, FROM, 1, { domainName: 'dh.example', keySelector: 'dh2026', privateKey: pem });
    const placeholder = newPlaceholder();
    const shell = email(BODIES[0] ?? '', placeholder);
    const template = mimeTemplate(shell.text, shell.html, placeholder, linkOf(LINK));
    const message: MailMessage = {
      to: 'pat@example.com',
      subject: 'The presale opens',
      ...email(BODIES[0] ?? '', LINK),
      headers: headers(LINK),
      envelopeFrom: 'bounces+x@dh.example',
      messageId: '<m1@dh.example>',
    };
    const before = sink.raw.length;
    await mailer.send(message);
    await mailer.send({ ...message, template: { mime: template, link: linkOf(LINK) } });
    mailer.close();
    const [composed, prebuilt] = sink.raw.slice(before);
    if (!composed || !prebuilt) throw new Error('the sink did not get both emails');

    const published = dkimRecord(readDkimKey(pem).key);
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === 'dh2026._domainkey.dh.example') return [[published]];
      throw Object.assign(new Error('no such record'), { code: 'ENOTFOUND' });
    };
    const verdict = async (raw: Buffer) => (await dkimVerify(raw, { resolver })).results[0]?.status.result;
    expect(await verdict(prebuilt)).toBe('pass');
    const signedFields = (raw: Buffer) => {
      const signature = /^DKIM-Signature:[^]*?(?=\r\n\S)/m.exec(raw.toString('latin1'))?.[0] ?? '';
      return /\bh=([^;]+);/.exec(signature.replace(/\r\n[ \t]/g, ' '))?.[1]?.replace(/\s/g, '');
    };
    expect(signedFields(prebuilt)).toBeTruthy();
    expect(signedFields(prebuilt)).toBe(signedFields(composed));
    // The envelope and the parts a reader sees are the composed email's.
    const [a, b] = await Promise.all([simpleParser(composed), simpleParser(prebuilt)]);
    expect(b.text).toBe(a.text);
    expect(b.html).toBe(a.html);
    expect(b.to).toEqual(a.to);
    expect(b.messageId).toBe('<m1@dh.example>');
    expect(sink.senders.slice(before)).toEqual(['bounces+x@dh.example', 'bounces+x@dh.example']);
    const tampered = Buffer.from(prebuilt.toString('latin1').replace('sig=3Dabc', 'sig=3Dxyz'), 'latin1');
    expect(tampered.equals(prebuilt)).toBe(false);
    expect(await verdict(tampered)).not.toBe('pass');
  });
});
