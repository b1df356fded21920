import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
  /** For logs: where mail goes, without credentials. */
  description: string;
}

/**
 * Real SMTP (smtp:// or smtps://, credentials in the URL), over a pool of up to `connections`
 * connections kept open between emails (nodemailer's pooled SMTP), so a busy outbox pays one
 * connection and greeting per hundred emails rather than one per email.
 */
export function smtpMailer(smtpUrl: string, from: string, connections = 1): Mailer {
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
  return {
    description: `${u.protocol}//${u.host}`,
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers ?? {} });
    },
    close: () => transport.close(),
  };
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
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers ?? {} });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${n++}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log(`Mail written to ${file}`);
    },
    close: () => transport.close(),
  };
}
