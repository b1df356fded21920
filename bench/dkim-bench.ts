// `npm run bench:dkim`: what the app's own DKIM signer (src/server/mail/dkim.ts, decision 0040)
// adds to each email, in this process: a confirmation-sized message composed by nodemailer's
// MailComposer (what the mailer hands its transform), then the same composed and signed through
// dkimTransform with a 2,048-bit RSA key, and, as the floor any signer pays, one RSA-2048 SHA-256
// signature alone. CPU µs per email, after a warm-up, each the median of five rounds. A
// measurement, not a test: it exits 0 whatever the figures.
import { createPrivateKey, createSign, generateKeyPairSync } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { dkimTransform } from '../src/server/features/mail/dkim.ts';
import { runBench } from './lib/run.ts';
import { int, printTable } from './lib/table.ts';

const EMAILS = 300;
const ROUNDS = 5;

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const sign = dkimTransform({ domainName: 'diamondhand.example', keySelector: 'dh2026', privateKey: pem });

// About a confirmation's size: a short text part and an HTML part of a few kilobytes.
const text = `Confirm your place on the list: https://diamondhand.example/confirm?t=${'x'.repeat(43)}\n`.repeat(4);
const html = `<!doctype html><html><body>${'<p>Thank you for joining. Press the button to confirm.</p>'.repeat(60)}</body></html>`;

const discard = (): Writable =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

async function compose(i: number, signed: boolean): Promise<void> {
  const mail = new MailComposer({
    from: 'Diamond Hand <hello@diamondhand.example>',
    to: `b${i}@example.com`,
    subject: 'Confirm your email',
    text,
    html,
    headers: { 'List-Unsubscribe': '<https://diamondhand.example/u>' },
  }).compile();
  const stream = mail.createReadStream();
  if (signed) await pipeline(stream, sign(), discard());
  else await pipeline(stream, discard());
}

async function cpuUsPerEmail(work: (i: number) => Promise<void> | void): Promise<number> {
  for (let i = 0; i < 50; i++) await work(i);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < EMAILS; i++) await work(i);
    const spent = process.cpuUsage(before);
    rounds.push((spent.user + spent.system) / EMAILS);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? Number.NaN;
}

runBench({ name: 'bench:dkim', timeoutMs: 3 * 60_000 }, async () => {
  const key = createPrivateKey(pem);
  const rsa = await cpuUsPerEmail(() => {
    createSign('sha256').update('a header block of about the size DKIM signs, '.repeat(12)).sign(key, 'base64');
  });
  const plain = await cpuUsPerEmail((i) => compose(i, false));
  const signed = await cpuUsPerEmail((i) => compose(i, true));
  printTable(
    `DKIM signing cost per email (CPU µs, median of ${ROUNDS} rounds of ${EMAILS}; reference: the same email composed unsigned)`,
    ['figure', 'µs/email', 'ratio to unsigned'],
    [
      ['composed, unsigned (MailComposer)', int(plain), '1.00'],
      ['composed and signed (dkimTransform)', int(signed), (signed / plain).toFixed(2)],
      ['the signing alone (difference)', int(signed - plain), ((signed - plain) / plain).toFixed(2)],
      ['one RSA-2048 signature alone (floor)', int(rsa), (rsa / plain).toFixed(2)],
    ],
  );
});
