// The server under test has no SMTP_URL, so every email it sends becomes an .eml file in the
// outbox directory (see playwright.config.ts). These helpers read that outbox like a mailbox.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import { simpleParser, type AddressObject } from 'mailparser';
import { e2eTarget } from './e2e-target.ts';

// The server is started from the project root (where the config lives), whatever our cwd is.
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
/** The outbox of the server this test's project drives. */
export const outboxDir = (): string => path.resolve(projectRoot, e2eTarget().outboxDir);

export interface OutboxMail {
  file: string;
  /** Every recipient address, as written in the To: header. */
  to: string[];
  subject: string;
  /** The plain-text part, decoded (quoted-printable and all). */
  text: string;
  /** The confirm link, e.g. http://127.0.0.1:4173/confirm?token=… */
  confirmUrl: string;
  /** The unsubscribe link, e.g. http://127.0.0.1:4173/unsubscribe?id=…&sig=… */
  unsubscribeUrl: string;
}

/** A fresh address per test, so parallel tests and reruns never see each other's mail. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

const addresses = (to: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(to) ? to : to ? [to] : []).flatMap((group) => group.value.map((a) => a.address ?? ''));

// Parsed files, by path: an .eml is written once and never changes after that.
const parsed = new Map<string, OutboxMail>();

async function parseFile(file: string): Promise<OutboxMail | null> {
  const mail = await simpleParser(await readFile(file));
  const text = mail.text ?? '';
  const confirmUrl = /https?:\/\/\S+\/confirm\?token=\S+/.exec(text)?.[0];
  const unsubscribeUrl = /https?:\/\/\S+\/unsubscribe\?\S+/.exec(text)?.[0];
  // A file caught half-written has no end yet: try again on the next poll.
  if (!confirmUrl || !unsubscribeUrl) return null;
  return { file, to: addresses(mail.to), subject: mail.subject ?? '', text, confirmUrl, unsubscribeUrl };
}

/** The .eml files in the outbox (full paths), oldest first (none before the server has sent anything). */
async function emlFiles(): Promise<string[]> {
  const dir = outboxDir();
  try {
    return (await readdir(dir))
      .filter((f) => f.endsWith('.eml'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Every complete email in the outbox now (none yet when the server has sent nothing). */
export async function readOutbox(): Promise<OutboxMail[]> {
  const files = await emlFiles();
  const mails: OutboxMail[] = [];
  for (const file of files) {
    let mail = parsed.get(file) ?? null;
    if (!mail) {
      mail = await parseFile(file).catch(() => null);
      if (mail) parsed.set(file, mail);
    }
    if (mail) mails.push(mail);
  }
  return mails;
}

/** The emails sent to this address (the domain compared without case, as the server stores it). */
export async function mailsTo(address: string): Promise<OutboxMail[]> {
  const want = address.toLowerCase();
  return (await readOutbox()).filter((m) => m.to.some((a) => a.toLowerCase() === want));
}

/**
 * Waits until the outbox holds an email to this address and returns it. The server's outbox
 * worker runs about once a second, so allow a few seconds.
 */
export async function waitForMail(address: string, timeout = 10_000): Promise<OutboxMail> {
  await expect
    .poll(async () => (await mailsTo(address)).length, {
      message: `a confirmation email to ${address} should appear in ${outboxDir()}`,
      timeout,
      intervals: [100, 200, 250],
    })
    .toBeGreaterThan(0);
  const [mail] = await mailsTo(address);
  if (!mail) throw new Error(`no email to ${address}`);
  return mail;
}

export interface BroadcastMail {
  to: string[];
  subject: string;
  text: string;
  unsubscribeUrl: string;
  listUnsubscribe: string;
  listUnsubscribePost: string;
}

/**
 * The emails with this subject (a broadcast's copies). Kept apart from readOutbox, which reads
 * confirmation emails only, so a broadcast never shows up in the sign-up tests' mailboxes.
 */
export async function mailsWithSubject(subject: string): Promise<BroadcastMail[]> {
  const files = await emlFiles();
  const out: BroadcastMail[] = [];
  for (const file of files) {
    const mail = await simpleParser(await readFile(file)).catch(() => null);
    const unsubscribeUrl = /https?:\/\/\S+\/unsubscribe\?\S+/.exec(mail?.text ?? '')?.[0];
    if (!mail || mail.subject !== subject || !unsubscribeUrl) continue;
    // The raw header lines: mailparser folds every List-* header into one parsed 'list' object.
    const header = (name: string) => mail.headerLines.find((h) => h.key === name)?.line ?? '';
    out.push({
      to: addresses(mail.to),
      subject: mail.subject,
      text: mail.text ?? '',
      unsubscribeUrl,
      listUnsubscribe: header('list-unsubscribe'),
      listUnsubscribePost: header('list-unsubscribe-post'),
    });
  }
  return out;
}
