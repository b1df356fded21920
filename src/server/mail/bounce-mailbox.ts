import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { BounceKind } from '../store/schema.ts';
import type { BounceIntake } from './bounces.ts';

// The bounce mailbox (BOUNCE_IMAP_URL): where mail to the VERP envelope senders lands. A job reads
// its unseen messages, takes delivery status notifications (RFC 3464) and abuse feedback reports
// (RFC 5965), matches each to the email it answers by the signed VERP address, and marks every
// message it has read \Seen, so each is read once (and the events are idempotent besides).
// docs/decisions/0035-bounces-complaints-and-suppression.md

export interface Classified {
  kind: BounceKind;
  /** The VERP address found in the report (its To, or the returned message's Return-Path). */
  envelope: string;
  detail: string | null;
  eventId: string;
}

const VERP = /bounces\+[0-9a-f]{48}@[a-z0-9.-]+[a-z]/gi;

const partText = (mail: ParsedMail, type: string): string | null => {
  const part = mail.attachments.find((a) => a.contentType.toLowerCase() === type);
  return part ? part.content.toString('utf8') : null;
};

/** Every VERP address in the places a report carries it, the report's own recipients first. */
function verpAddresses(mail: ParsedMail, raw: string): string[] {
  const heads = ['to', 'delivered-to', 'x-original-to', 'envelope-to']
    .map((h) => mail.headers.get(h))
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && 'text' in v ? String(v.text) : ''))
    .join(' ');
  return [...(heads.match(VERP) ?? []), ...(raw.match(VERP) ?? [])].map((a) => a.toLowerCase());
}

/**
 * What a message in the bounce mailbox reports, or null when it is neither a failed-delivery DSN
 * nor a feedback report (an auto-reply, a "delayed" warning, spam).
 */
export function classifyReport(mail: ParsedMail, raw: string, fallbackId: string): Classified | null {
  const contentType = mail.headers.get('content-type');
  const reportType =
    contentType && typeof contentType === 'object' && 'params' in contentType
      ? String((contentType.params as Record<string, string>)['report-type'] ?? '').toLowerCase()
      : '';
  const eventId = mail.messageId ?? fallbackId;
  const [envelope] = verpAddresses(mail, raw);
  if (!envelope) return null;
  if (reportType === 'feedback-report') {
    const report = partText(mail, 'message/feedback-report') ?? raw;
    const type = /^Feedback-Type:\s*([\w-]+)/im.exec(report)?.[1]?.toLowerCase();
    // "abuse" (and "fraud", "virus") are complaints; "not-spam" is the opposite.
    if (!type || type === 'not-spam') return null;
    return { kind: 'complaint', envelope, detail: type, eventId };
  }
  if (reportType === 'delivery-status') {
    const status = partText(mail, 'message/delivery-status') ?? raw;
    // The per-recipient blocks: a failed one decides (5.x.x hard, 4.x.x soft); "delayed" is a warning.
    const blocks = status.split(/\r?\n\r?\n/);
    for (const b of blocks) {
      const action = /^Action:\s*(\w+)/im.exec(b)?.[1]?.toLowerCase();
      const code = /^Status:\s*([245])\.(\d{1,3})\.(\d{1,3})/im.exec(b);
      if (action !== 'failed' || !code) continue;
      const detail = `${code[1]}.${code[2]}.${code[3]}`;
      if (code[1] === '5') return { kind: 'hard', envelope, detail, eventId };
      if (code[1] === '4') return { kind: 'soft', envelope, detail, eventId };
    }
  }
  return null;
}

export interface BounceMailboxOptions {
  /** imap://user:password@host:143/INBOX or imaps://…:993/INBOX (the path names the folder). */
  url: string;
  intake: BounceIntake;
  now: () => Date;
  log: (msg: string, fields: Record<string, unknown>) => void;
}

/** Reads the mailbox's unseen messages once; returns how many it read. */
export async function readBounceMailbox(opts: BounceMailboxOptions): Promise<number> {
  const u = new URL(opts.url);
  const client = new ImapFlow({
    host: u.hostname,
    port: Number(u.port) || (u.protocol === 'imaps:' ? 993 : 143),
    secure: u.protocol === 'imaps:',
    auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
    logger: false,
    // Plain imap:// is for a mailbox on this machine (and tests); anything else uses imaps://.
    doSTARTTLS: u.protocol === 'imaps:' ? undefined : false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  await client.connect();
  let read = 0;
  try {
    const lock = await client.getMailboxLock(decodeURIComponent(u.pathname.replace(/^\/+/, '')) || 'INBOX');
    try {
      const uids = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of uids) {
        const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
        const source = message && message.source ? message.source : null;
        if (source) {
          const raw = source.toString('utf8');
          const classified = classifyReport(
            await simpleParser(source),
            raw,
            `uid:${String(client.mailbox && client.mailbox.uidValidity)}:${uid}`,
          );
          if (classified) {
            const outcome = await opts.intake.byEnvelope(classified.envelope, {
              kind: classified.kind,
              source: classified.kind === 'complaint' ? 'arf' : 'dsn',
              eventId: classified.eventId,
              detail: classified.detail,
              now: opts.now(),
            });
            opts.log('bounce mailbox message read', { kind: classified.kind, outcome });
          } else {
            opts.log('bounce mailbox message is no bounce report', {});
          }
        }
        // Marked only once its bounce is stored: a crash before re-reads it, and it counts once.
        await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
        read++;
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return read;
}
