import { closeSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { dkimTransform, type DkimSigning } from './dkim.ts';
import { fillMimeTemplate, type MimeTemplate, type TemplateLink } from './mime-template.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** The envelope sender (SMTP MAIL FROM), where bounces go: a VERP address (verp.ts). */
  envelopeFrom?: string;
  /** The Message-ID header, `<…@…>` (verp.ts: it carries the row's signed id); unset, nodemailer makes one. */
  messageId?: string;
  /**
   * The same email's body built once for many recipients (a broadcast version: mime-template.ts)
   * and this recipient's link in it: the SMTP mailer sends it filled in rather than composing
   * `text` and `html` again, which say the same.
   */
  template?: { mime: MimeTemplate; link: TemplateLink };
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
  /** For logs: where mail goes, without credentials. */
  description: string;
  /**
   * Deletes every copy this mailer kept of mail to `address` (an erasure), and says how many.
   * Only the file mailer keeps copies; what an SMTP provider keeps is out of the app's reach.
   */
  forget?(address: string): Promise<number>;
}

/**
 * Real SMTP (smtp:// or smtps://, credentials in the URL), over a pool of up to `connections`
 * connections kept open between emails (nodemailer's pooled SMTP), so a busy outbox pays one
 * connection and greeting per hundred emails rather than one per email. With `dkim`, each email
 * is DKIM-signed (DKIM_PRIVATE_KEY; docs/decisions/0040).
 */
export function smtpMailer(smtpUrl: string, from: string, connections = 1, dkim?: DkimSigning): Mailer {
  const u = new URL(smtpUrl);
  // A hung mail server must not hold an outbox lease for long; the worker retries later.
  // nodemailer reads options from the URL's query; ones the operator set win.
  const withTimeouts = new URL(smtpUrl);
  const defaults = {
    connectionTimeout: '10000',
    greetingTimeout: '10000',
    socketTimeout: '30000',
    pool: 'true',
    maxConnections: String(connections),
  };
  for (const [k, v] of Object.entries(defaults)) {
    if (!withTimeouts.searchParams.has(k)) withTimeouts.searchParams.set(k, v);
  }
  const transport = nodemailer.createTransport(withTimeouts.toString());
  // The app signs the finished message itself (dkim.ts: it oversigns, which nodemailer's signer cannot).
  const sign = dkim ? dkimTransform(dkim) : undefined;
  if (sign)
    transport.use('stream', (mail, done) => {
      mail.message.transform(sign);
      done();
    });
  // A prebuilt email goes as raw bytes, whose envelope nodemailer does not read from its headers.
  const fromAddress = addressparser(from, { flatten: true })[0]?.address ?? from;
  return {
    description: `${u.protocol}//${u.host}`,
    async send(m) {
      if (m.template) {
        const raw = fillMimeTemplate(
          m.template.mime,
          { from, to: m.to, subject: m.subject, headers: m.headers ?? {}, messageId: m.messageId },
          m.template.link,
        );
        // The DKIM transform above signs raw messages as it signs composed ones (a 'stream' plugin).
        await transport.sendMail({ raw, envelope: { from: m.envelopeFrom ?? fromAddress, to: m.to } });
        return;
      }
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        headers: m.headers ?? {},
        ...(m.envelopeFrom ? { envelope: { from: m.envelopeFrom, to: m.to } } : {}),
        ...(m.messageId ? { messageId: m.messageId } : {}),
      });
    },
    close: () => transport.close(),
  };
}

/** The header block of an .eml file (up to the first blank line), at most 64 KB of it. */
function headerBlock(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('latin1');
    const end = text.search(/\r?\n\r?\n/);
    return end === -1 ? text : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

/**
 * The .eml files in `dir` addressed to `address` (compared ignoring case), found by reading each
 * file's To: header: no new record of who was written to is kept for this.
 */
function outboxFilesTo(dir: string, address: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  const wanted = address.trim().toLowerCase();
  return names
    .map((n) => path.join(dir, n))
    .filter((file) => {
      // Unfolded (RFC 5322 §2.2.3) so an address on a continuation line is found too.
      const to = /^to:(.*(?:\r?\n[ \t].*)*)/im.exec(headerBlock(file))?.[1] ?? '';
      return (
        to
          .replace(/\r?\n[ \t]/g, ' ')
          .toLowerCase()
          .match(/[^\s<>,"]+@[^\s<>,"]+/g)
          ?.includes(wanted) ?? false
      );
    });
}

/**
 * No SMTP_URL: every email becomes an .eml file under data/outbox/ (open it with any mail
 * program, or `npm run outbox:last` for the newest one's links). The log names only the file:
 * the recipient and the links (live tokens) stay in the file, which only this user can read.
 */
export function fileMailer(dir: string, from: string, log: (msg: string) => void): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Owner only: the folder and every file hold addresses and working links.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let n = 0;
  return {
    description: `files in ${dir}`,
    async send(m) {
      const info = await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        headers: m.headers ?? {},
        ...(m.messageId ? { messageId: m.messageId } : {}),
      });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${n++}.eml`);
      // Written from the thread pool, not the event loop: creating a file in a folder of tens of
      // thousands was a fifth of the main thread while the outbox drained after a burst (decision 0051).
      await writeFile(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
      log(`Mail written to ${file}`);
    },
    async forget(address) {
      const files = outboxFilesTo(dir, address);
      for (const file of files) unlinkSync(file);
      return files.length;
    },
    close: () => transport.close(),
  };
}
