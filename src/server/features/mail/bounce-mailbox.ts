import { ImapFlow } from 'imapflow';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { BounceKind } from '../../store/schema.ts';
import { errorText } from '../../lib/log-safe.ts';
import type { BackgroundJob } from '../../plugins/jobs.ts';
import type { BounceIntake } from './bounces.ts';

// The bounce mailbox (BOUNCE_IMAP_URL): where mail to the VERP envelope senders lands. A job,
// woken by IMAP IDLE and polling as a fallback, reads its unseen messages, takes delivery status
// notifications (RFC 3464) and abuse feedback reports (RFC 5965), matches each to the email it
// answers by the signed VERP address or the signed Message-ID, and marks every message it has read
// \Seen, so each is read once (and the events are idempotent besides). A message too large to be
// a report is moved aside unread.
// docs/decisions/0035-bounces-complaints-and-suppression.md

interface Classified {
  kind: BounceKind;
  /**
   * Our references found in the report, most telling first: VERP addresses in its own recipient
   * headers, then the returned copy's Return-Path and our Message-ID, then any VERP address in it.
   * Each still has to pass its signature (bounces.ts); text that only looks like one never counts.
   */
  references: string[];
  detail: string | null;
  eventId: string;
}

const VERP = /bounces\+[0-9a-f]{48}@[a-z0-9.-]+[a-z]/gi;
// Our Message-ID (verp.ts) and VERP Return-Path, on a header line of the copy a report returns;
// a header may be folded onto the next line (RFC 5322 §2.2.3: nodemailer folds our Message-ID).
const OUR_MESSAGE_ID = /^Message-ID:[ \t]*(?:\r?\n[ \t]+)?(<dh\.[0-9a-f]{48}@[a-z0-9.-]+>)/gim;
const RETURN_PATH = /^Return-Path:[ \t]*(?:\r?\n[ \t]+)?<?(bounces\+[0-9a-f]{48}@[a-z0-9.-]+[a-z])>?/gim;
/** The parts that return the original email, or its headers (RFC 3464, RFC 5965). */
const RETURNED = new Set(['message/rfc822', 'text/rfc822-headers', 'message/rfc822-headers']);

const partText = (mail: ParsedMail, type: string): string | null => {
  const part = mail.attachments.find((a) => a.contentType.toLowerCase() === type);
  return part ? part.content.toString('utf8') : null;
};

/** Every reference of ours in the places a report carries one, the most telling first. */
function referencesIn(mail: ParsedMail, raw: string): string[] {
  const heads = ['to', 'delivered-to', 'x-original-to', 'envelope-to']
    .map((h) => mail.headers.get(h))
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && 'text' in v ? String(v.text) : ''))
    .join(' ');
  // The returned copy as mailparser decoded it (a part may be base64 or quoted-printable), and raw.
  const copies = [
    ...mail.attachments.filter((a) => RETURNED.has(a.contentType.toLowerCase())).map((a) => a.content.toString('utf8')),
    raw,
  ];
  const all = [
    ...(heads.match(VERP) ?? []),
    ...copies.flatMap((c) => [...c.matchAll(RETURN_PATH)].map((m) => m[1] ?? '')),
    ...copies.flatMap((c) => [...c.matchAll(OUR_MESSAGE_ID)].map((m) => m[1] ?? '')),
    ...(raw.match(VERP) ?? []),
  ].map((a) => a.toLowerCase());
  return [...new Set(all.filter(Boolean))];
}

/**
 * What a message in the bounce mailbox reports, or null when it is neither a failed-delivery DSN
 * nor a feedback report (an auto-reply, a "delayed" warning, spam), or names no email of ours.
 */
function classifyReport(mail: ParsedMail, raw: string, fallbackId: string): Classified | null {
  const contentType = mail.headers.get('content-type');
  const reportType =
    contentType && typeof contentType === 'object' && 'params' in contentType
      ? String((contentType.params as Record<string, string>)['report-type'] ?? '').toLowerCase()
      : '';
  const eventId = mail.messageId ?? fallbackId;
  const references = referencesIn(mail, raw);
  if (references.length === 0) return null;
  if (reportType === 'feedback-report') {
    const report = partText(mail, 'message/feedback-report') ?? raw;
    const type = /^Feedback-Type:\s*([\w-]+)/im.exec(report)?.[1]?.toLowerCase();
    // "abuse" (and "fraud", "virus") are complaints; "not-spam" is the opposite.
    if (!type || type === 'not-spam') return null;
    return { kind: 'complaint', references, detail: type, eventId };
  }
  if (reportType === 'delivery-status') {
    const status = partText(mail, 'message/delivery-status') ?? raw;
    // The per-recipient blocks: a failed one decides (5.x.x hard, but 5.7.x — a receiver's policy
    // or content filter — a policy refusal; 4.x.x soft); "delayed" is a warning.
    const blocks = status.split(/\r?\n\r?\n/);
    for (const b of blocks) {
      const action = /^Action:\s*(\w+)/im.exec(b)?.[1]?.toLowerCase();
      const code = /^Status:\s*([245])\.(\d{1,3})\.(\d{1,3})/im.exec(b);
      if (action !== 'failed' || !code) continue;
      const detail = `${code[1]}.${code[2]}.${code[3]}`;
      if (code[1] === '5') return { kind: code[2] === '7' ? 'policy' : 'hard', references, detail, eventId };
      if (code[1] === '4') return { kind: 'soft', references, detail, eventId };
    }
  }
  return null;
}

/**
 * The largest message read (RFC822.SIZE, asked before anything is downloaded). A DSN or feedback
 * report returns at most one of our emails: a broadcast is at most 20,000 characters, which with
 * its HTML version and a transfer encoding or two stays well under 300 KB. Anything larger is not
 * a report of ours, and parsing it is what stalled the event loop (a 21 MB message of 150,000
 * parts: 0.7 s and 300 MB); it is moved to OVERSIZED_FOLDER, unread, for a person to look at.
 */
export const BOUNCE_MAX_BYTES = 1024 * 1024;
export const OVERSIZED_FOLDER = 'Oversized';

export interface BounceMailboxOptions {
  /** imap://user:password@host:143/INBOX or imaps://…:993/INBOX (the path names the folder). */
  url: string;
  intake: BounceIntake;
  now: () => Date;
  log: (msg: string, fields: Record<string, unknown>) => void;
  /** BOUNCE_MAX_BYTES unless a test says otherwise. */
  maxBytes?: number;
}

const folderOf = (u: URL) => decodeURIComponent(u.pathname.replace(/^\/+/, '')) || 'INBOX';

function imapClient(u: URL, idle: boolean): ImapFlow {
  return new ImapFlow({
    host: u.hostname,
    port: Number(u.port) || (u.protocol === 'imaps:' ? 993 : 143),
    secure: u.protocol === 'imaps:',
    auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) },
    logger: false,
    // Plain imap:// is for a mailbox on this machine (and tests); anything else uses imaps://.
    doSTARTTLS: u.protocol === 'imaps:' ? undefined : false,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    ...(idle
      ? {
          // IDLE at once when nothing else runs (this connection only watches), re-issued every
          // 4 minutes — under the 5-minute socket timeout, and well under the 29 minutes RFC 2177
          // allows — so a silent server or a NAT that forgot the connection is noticed.
          autoIdleDelay: 200,
          maxIdleTime: 4 * 60_000,
          socketTimeout: 5 * 60_000,
        }
      : { socketTimeout: 60_000, disableAutoIdle: true }),
  });
}

/** Moves one message to OVERSIZED_FOLDER without reading it (made the first time it is needed). */
async function moveAside(client: ImapFlow, uid: number): Promise<void> {
  const exists = (await client.list()).some((f) => f.path === OVERSIZED_FOLDER);
  if (!exists) await client.mailboxCreate(OVERSIZED_FOLDER);
  await client.messageMove(String(uid), OVERSIZED_FOLDER, { uid: true });
}

/** Reads the mailbox's unseen messages once; returns how many it read (or moved aside). */
export async function readBounceMailbox(opts: BounceMailboxOptions): Promise<number> {
  const u = new URL(opts.url);
  const client = imapClient(u, false);
  await client.connect();
  const maxBytes = opts.maxBytes ?? BOUNCE_MAX_BYTES;
  let read = 0;
  try {
    const lock = await client.getMailboxLock(folderOf(u));
    try {
      const uids = (await client.search({ seen: false }, { uid: true })) || [];
      // Sizes first, and nothing else: an oversized message is moved aside before any of it is
      // downloaded. (Collected before acting: no other command may run inside a FETCH.)
      const sizes = new Map<number, number>();
      if (uids.length > 0)
        for await (const m of client.fetch(uids, { uid: true, size: true }, { uid: true }))
          sizes.set(m.uid, m.size ?? 0);
      for (const uid of uids) {
        const size = sizes.get(uid);
        if (size === undefined) continue; // gone meanwhile (another instance moved it)
        if (size > maxBytes) {
          await moveAside(client, uid);
          // No address: only how large it was, and where it went.
          opts.log('bounce mailbox message too large; moved aside unread', {
            bytes: size,
            limit: maxBytes,
            folder: OVERSIZED_FOLDER,
          });
          read++;
          continue;
        }
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
            const outcome = await opts.intake.byReference(classified.references, {
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

/**
 * Watches the mailbox with IMAP IDLE (RFC 2177) on a connection of its own and calls `onNew` when
 * a message arrives, and once each time it (re)connects, for what came while it was away. A lost
 * connection is made again after 1 s, doubling to a minute. It reads nothing itself.
 */
export class BounceMailboxWatcher {
  private client: ImapFlow | null = null;
  private stopped = true;
  private retryMs = 1000;
  private timer: NodeJS.Timeout | undefined;
  /** Resolves each time the watcher is connected and listening (tests wait on it). */
  private readyListeners: (() => void)[] = [];

  constructor(
    private readonly opts: {
      url: string;
      onNew: () => void;
      log: (msg: string, fields: Record<string, unknown>) => void;
    },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
  }

  /** Resolves once the watcher is connected, its folder open (at once when it already is). */
  ready(): Promise<void> {
    if (this.client) return Promise.resolve();
    return new Promise((resolve) => this.readyListeners.push(resolve));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const u = new URL(this.opts.url);
    const client = imapClient(u, true);
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.connect(), this.retryMs);
      this.timer.unref();
      this.retryMs = Math.min(this.retryMs * 2, 60_000);
    };
    // Only a rise: moving or expunging messages lowers the count, and is nothing new.
    client.on('exists', (d: { count: number; prevCount: number }) => {
      if (d.count > d.prevCount) this.opts.onNew();
    });
    // The error only: the URL holds the mailbox's password.
    client.on('error', (error: unknown) =>
      this.opts.log('bounce mailbox watch failed; will reconnect', { err: errorText(error) }),
    );
    client.on('close', onLost);
    try {
      await client.connect();
      await client.mailboxOpen(folderOf(u));
    } catch (error) {
      this.opts.log('bounce mailbox watch failed; will reconnect', { err: errorText(error) });
      client.close();
      onLost();
      return;
    }
    if (this.stopped || lost) {
      client.close();
      return;
    }
    this.client = client;
    this.retryMs = 1000;
    this.opts.onNew();
    for (const resolve of this.readyListeners.splice(0)) resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) await client.logout().catch(() => client.close());
  }
}

/**
 * The bounce mailbox as a background job: IMAP IDLE says when a message arrives, and a poll every
 * `pollMs` stays as the fallback (a server without IDLE, a notification lost while reconnecting).
 * Reads never overlap, and any number of notifications during a read make one more read after it.
 */
export function bounceMailboxJob(
  opts: BounceMailboxOptions & { pollMs: number; onError: (error: unknown) => void },
): BackgroundJob & { watcher: BounceMailboxWatcher } {
  let chain: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const readSoon = (): Promise<void> => {
    if (queued) return queued;
    const next = chain
      .then(async () => {
        queued = null;
        await readBounceMailbox(opts);
      })
      .catch(opts.onError);
    queued = next;
    chain = next;
    return next;
  };
  const watcher = new BounceMailboxWatcher({ url: opts.url, onNew: () => void readSoon(), log: opts.log });
  return {
    name: 'bounce-mailbox',
    watcher,
    start() {
      // The watcher reads once as soon as it is connected; the poll is the fallback.
      watcher.start();
      timer = setInterval(() => void readSoon(), opts.pollMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await watcher.stop();
      await chain;
    },
    runOnce: readSoon,
  };
}
