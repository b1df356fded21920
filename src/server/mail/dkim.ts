import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { domainOf } from './verp.ts';

// DKIM signing by the app (docs/decisions/0040-dkim-mail-check-and-a-brake-that-keeps-counting.md),
// for mail servers that do not sign: nodemailer signs each email (its `dkim` option) with the key
// in DKIM_PRIVATE_KEY under DKIM_SELECTOR._domainkey.DKIM_DOMAIN. Read and checked once at start,
// so a bad key stops the server with a sentence instead of failing every email later.

/** What nodemailer's `dkim` option takes. */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

/** Smaller RSA keys are refused by Gmail and by verifiers such as mailauth (minBitLength 1024). */
export const DKIM_MIN_BITS = 1024;

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
