import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed. */
export interface SmtpSink {
  url: string;
  port: number;
  messages: ParsedMail[];
  /** Resolves when at least n messages have arrived (or rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** An SMTP refusal for one recipient (e.g. 450 throttled, 550 no such mailbox), or null to accept. */
export type SinkAnswer = (recipient: string) => { code: number; message: string } | null;

export async function startSmtpSink(port = 0, answer?: SinkAnswer): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = answer?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          for (const w of waiters.splice(0)) w();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
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
