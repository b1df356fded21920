import { createHash, createPrivateKey, createPublicKey, createSign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Transform } from 'node:stream';
import { domainOf } from './verp.ts';

// DKIM signing by the app (docs/decisions/0040-dkim-mail-check-and-a-brake-that-keeps-counting.md),
// for mail servers that do not sign: each email nodemailer builds is signed here (dkimTransform,
// below) with the key in DKIM_PRIVATE_KEY under DKIM_SELECTOR._domainkey.DKIM_DOMAIN. Read and checked once at start,
// so a bad key stops the server with a sentence instead of failing every email later.

/** The signing settings (the shape nodemailer's `dkim` option takes). */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** Smaller RSA keys are refused by Gmail and by verifiers such as mailauth (minBitLength 1024). */
const DKIM_MIN_BITS = 1024;

const LABEL = /^(?=.{1,63}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;

/** A DKIM selector: one or more DNS labels ("dh2026", "mail.s1"). */
export const isSelector = (s: string): boolean => s.length <= 200 && s.split('.').every((l) => LABEL.test(l));

/**
 * DKIM_PRIVATE_KEY's value: the PEM itself (its line breaks may be written `\n`, as env files and
 * secret stores hold one line), or else the path of a file holding it. Returns the PEM; throws in
 * words (never quoting the value: it is a secret).
 */
export function readDkimKey(value: string): { pem: string; key: KeyObject } {
  const v = value.trim();
  let pem: string;
  if (v.startsWith('-----BEGIN')) pem = v.replace(/\\n/g, '\n');
  else {
    try {
      pem = readFileSync(v, 'utf8');
    } catch {
      throw new Error(
        'is neither a PEM private key (-----BEGIN PRIVATE KEY-----…) nor the path of a readable file holding one',
      );
    }
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(
      'is not a private key in PEM form (make one with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`)',
    );
  }
  // nodemailer signs rsa-sha256 only; an Ed25519 key (RFC 8463) would fail every email.
  if (key.asymmetricKeyType !== 'rsa') throw new Error('must be an RSA key (nodemailer signs with rsa-sha256 only)');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < DKIM_MIN_BITS)
    throw new Error(`is a ${bits}-bit RSA key; receivers ignore DKIM keys under ${DKIM_MIN_BITS} bits (use 2048)`);
  return { pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), key };
}

/** The public half as the DKIM TXT record's `p=`: base64 of the DER SubjectPublicKeyInfo. */
export const dkimPublicKeyBase64 = (key: KeyObject): string =>
  createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');

/** The TXT record to publish at `<selector>._domainkey.<domain>`. */
export const dkimRecord = (key: KeyObject): string => `v=DKIM1; k=rsa; p=${dkimPublicKeyBase64(key)}`;

/** The signing settings from the checked environment, the domain defaulting to MAIL_FROM's; unset: no signing. */
export function dkimSigningOf(env: {
  DKIM_PRIVATE_KEY?: string | undefined;
  DKIM_SELECTOR?: string | undefined;
  DKIM_DOMAIN?: string | undefined;
  MAIL_FROM: string;
}): DkimSigning | undefined {
  if (!env.DKIM_PRIVATE_KEY || !env.DKIM_SELECTOR) return undefined;
  const domainName = env.DKIM_DOMAIN ?? domainOf(env.MAIL_FROM);
  if (!domainName) throw new Error('DKIM_DOMAIN must be set when MAIL_FROM has no domain.');
  return { domainName, keySelector: env.DKIM_SELECTOR, privateKey: env.DKIM_PRIVATE_KEY };
}

// The header fields the signature covers (its h= tag). Neither nodemailer's signer nor mailauth's
// can oversign (each lists a present field once and drops absent ones), so the app signs itself:
// RFC 6376's relaxed/relaxed with rsa-sha256, checked by mailauth's verifier in dkim.test.ts.
// - RFC 8058 §4: List-Unsubscribe and List-Unsubscribe-Post must both be signed; Gmail's feedback
//   loop reads Feedback-ID only when signed; List-Id names the broadcast complaints count against.
// - Oversigned (RFC 6376 §5.4.2, §8.15; OpenDKIM's OversignHeaders): each name listed once more
//   than it occurs, so a field of that name added later (a second From or List-Unsubscribe put
//   above ours, which a reader may show instead) fails the signature; an absent one listed once
//   says there is none (no Reply-To or Cc can be slipped in).
// - Feedback-ID is signed but not oversigned: Amazon SES adds its own to every email it relays,
//   which would fail every signature sent through it.
const SIGNED_HEADERS = [
  'from',
  'reply-to',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'list-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'feedback-id',
] as const;
const NOT_OVERSIGNED: ReadonlySet<string> = new Set(['feedback-id']);

/** RFC 6376 §3.4.2 relaxed header: lower-case name, unfolded, runs of SP/HTAB as one SP, none at the ends. */
const relaxedHeader = (field: string): string => {
  const colon = field.indexOf(':');
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, '');
  return `${field
    .slice(0, colon)
    .replace(/[ \t]+$/, '')
    .toLowerCase()}:${value}`;
};

/** RFC 6376 §3.4.4 relaxed body: SP/HTAB runs as one SP, none at line ends, no empty lines at the end. */
function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/**
 * The DKIM-Signature field (without its final CRLF) for a whole message, to be put above its
 * first line. The message is read as bytes (latin1 keeps each byte one character), its bare LFs
 * as CRLF: nodemailer leaves a 7bit part's line breaks as given and SMTP sends them as CRLF.
 */
function dkimSignature(
  message: Buffer,
  signing: DkimSigning,
  now: Date = new Date(),
  key: KeyObject = createPrivateKey(signing.privateKey),
): string {
  const text = message.toString('latin1').replace(/\r?\n/g, '\r\n');
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split + 2);
  const body = split === -1 ? '' : text.slice(split + 4);
  const fields = head
    .split(/\r\n(?![ \t])/)
    .filter((f) => f.includes(':'))
    .map((field) => ({ name: field.slice(0, field.indexOf(':')).trim().toLowerCase(), field }));

  const h: string[] = [];
  for (const name of SIGNED_HEADERS) {
    const present = fields.filter((f) => f.name === name).length;
    for (let i = 0; i < present + (NOT_OVERSIGNED.has(name) ? 0 : 1); i++) h.push(name);
  }
  // Each listed name takes the next instance from the bottom; one listed beyond them signs "none".
  let signed = '';
  const taken = new Map<string, number>();
  for (const name of h) {
    const instances = fields.filter((f) => f.name === name);
    const k = taken.get(name) ?? 0;
    taken.set(name, k + 1);
    const f = instances[instances.length - 1 - k];
    if (f) signed += `${relaxedHeader(f.field)}\r\n`;
  }
  const bh = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  // Folded only at tag boundaries (";" then CRLF SP), which relaxed canonicalization reads as "; ".
  const unsigned =
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${signing.domainName}; s=${signing.keySelector};` +
    `\r\n t=${Math.floor(now.getTime() / 1000)}; h=${h.join(':')};\r\n bh=${bh};\r\n b=`;
  signed += relaxedHeader(unsigned);
  const b = createSign('sha256').update(signed, 'latin1').sign(key, 'base64');
  return unsigned + b.replace(/(.{72})(?=.)/g, '$1\r\n ');
}

/**
 * A nodemailer message transform (`mail.message.transform`) that holds the whole message and
 * puts its DKIM-Signature above it: a new stream for each time the message is read.
 */
export const dkimTransform = (signing: DkimSigning, now: () => Date = () => new Date()): (() => Transform) => {
  // Parsed once, not for every email.
  const key = createPrivateKey(signing.privateKey);
  return () => {
    const chunks: Buffer[] = [];
    return new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
        done();
      },
      flush(done) {
        try {
          const message = Buffer.concat(chunks);
          const field = dkimSignature(message, signing, now(), key);
          done(null, Buffer.concat([Buffer.from(`${field}\r\n`, 'latin1'), message]));
        } catch (error) {
          done(error instanceof Error ? error : new Error(String(error)));
        }
      },
    });
  };
};
