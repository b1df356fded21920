import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed. */
export interface SmtpSink {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** Each kept message's envelope sender (SMTP MAIL FROM), in the same order. */
  senders: string[];
  /** Each kept message's bytes as received (what a DKIM verifier reads), in the same order. */
  raw: Buffer[];
  /** SMTP connections opened to it so far (a pooled sender opens few). */
  connections(): number;
  /** Resolves when at least n messages have arrived (or rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** An SMTP refusal for one recipient (e.g. 450 throttled, 550 no such mailbox), or null to accept. */
export type SinkAnswer = (recipient: string) => { code: number; message: string } | null;

export interface SinkHooks {
  /**
   * Awaited before a message is accepted (250), with its envelope recipients: a test holds
   * messages in the middle of their SMTP exchange with it.
   */
  beforeAccept?: (recipients: string[]) => Promise<void>;
  /** Called as each message is accepted. */
  onAccepted?: (recipients: string[]) => void;
  /** False: messages are neither parsed nor kept (a benchmark counts them with onAccepted). */
  keep?: boolean;
}

export async function startSmtpSink(port = 0, answer?: SinkAnswer, hooks: SinkHooks = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const senders: string[] = [];
  const raw: Buffer[] = [];
  const waiters: (() => void)[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Senders keep pooled connections open between emails; closing the sink (a mail server going
    // down) ends them after this grace rather than smtp-server's 30 s.
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      const refusal = answer?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, session, callback) {
      const recipients = session.envelope.rcptTo.map((r) => r.address);
      const accept = async (kept: { mail: ParsedMail; bytes: Buffer } | null) => {
        await hooks.beforeAccept?.(recipients);
        if (kept) {
          senders.push(session.envelope.mailFrom ? session.envelope.mailFrom.address : '');
          raw.push(kept.bytes);
          messages.push(kept.mail);
        }
        hooks.onAccepted?.(recipients);
        for (const w of waiters.splice(0)) w();
      };
      const parsed =
        hooks.keep === false
          ? new Promise<null>((resolve, reject) => {
              stream
                .on('error', reject)
                .on('end', () => resolve(null))
                .resume();
            })
          : new Promise<Buffer>((resolve, reject) => {
              const chunks: Buffer[] = [];
              stream
                .on('error', reject)
                .on('data', (c: Buffer) => chunks.push(c))
                .on('end', () => resolve(Buffer.concat(chunks)));
            }).then(async (bytes) => ({ mail: await simpleParser(bytes), bytes }));
      parsed.then(accept).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // smtp-server re-emits each connection's socket errors on the server. A sender that dies in the
  // middle of a pooled session (a test's kill -9) resets its connection: a real mail server shrugs
  // that off, and so does the sink, instead of failing the test run with an unhandled error.
  server.on('error', () => undefined);
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
    senders,
    raw,
    connections: () => connections,
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${n} emails, got ${messages.length}`)), timeoutMs);
        const check = () => {
          if (messages.length >= n) {
            clearTimeout(timer);
            resolve(messages);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text part whose path contains `word`. */
export function linkIn(mail: ParsedMail, word: string): string {
  const link = (mail.text ?? '').match(/https?:\/\/\S+/g)?.find((l) => new URL(l).pathname.includes(word));
  if (!link) throw new Error(`no ${word} link in: ${mail.text ?? ''}`);
  return link;
}
