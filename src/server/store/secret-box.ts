import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the app must read back (authenticator secrets, link-signing keys) are kept encrypted
// with AES-256-GCM under a data key that never lives in the database
// (docs/decisions/0031-data-key-and-erasure-ledger.md). A stored value names the key that sealed
// it and is bound to its row: `v1:<key id>:<iv>:<ciphertext+tag>` (base64url), with the row's
// identity ("operators.totp_secret:<operator id>") as additional authenticated data, so a value
// copied into another row, or altered, fails to open instead of yielding a wrong secret.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface DataKey {
  /** 16 hex digits that name the key without revealing it. */
  id: string;
  key: Buffer;
}

/** A stored secret that cannot be opened, in words that say what to do. */
export class SecretBoxError extends Error {}

/** Names a 32-byte key by an HMAC of a fixed label: stable, and useless for guessing the key. */
export function dataKey(key: Buffer): DataKey {
  if (key.length !== 32) throw new SecretBoxError('A data key must be exactly 32 bytes.');
  return { id: createHmac('sha256', key).update('diamond-hand/key-id').digest('hex').slice(0, 16), key };
}

/** A key for one purpose, made from a data key with HKDF-SHA256 (RFC 5869), so no key does two jobs. */
export function deriveKey(ikm: Buffer | string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), `diamond-hand/${purpose}`, 32));
}

/** Where a secret lives: the table, the column and the row it belongs to. */
export const totpSecretContext = (operatorId: string): string => `operators.totp_secret:${operatorId}`;
export const linkKeyContext = (keyId: string): string => `link_keys.secret:${keyId}`;

export class SecretBox {
  readonly current: DataKey;
  /** Verify/decrypt only: the keys before the last rotation (DATA_KEY_PREVIOUS). */
  readonly previous: readonly DataKey[];
  /** Where the key came from, for the start-up log ("DATA_KEY", …); never the key. */
  readonly source: string;

  constructor(current: DataKey, previous: readonly DataKey[] = [], source = 'DATA_KEY') {
    this.current = current;
    this.previous = previous.filter((k) => k.id !== current.id);
    this.source = source;
  }

  /** Every key this box can open with, the current one first. */
  get keys(): readonly DataKey[] {
    return [this.current, ...this.previous];
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${this.current.id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  open(stored: string, context: string): string {
    const parts = stored.split(':');
    if (parts[0] !== VERSION || parts.length !== 4) {
      throw new SecretBoxError(
        `The secret in ${context} is not encrypted (or not in a format this version knows): run \`npm run db:migrate\` with DATA_KEY set, which encrypts every stored secret.`,
      );
    }
    const [, keyId = '', ivText = '', bodyText = ''] = parts;
    const key = this.keys.find((k) => k.id === keyId);
    if (!key) {
      throw new SecretBoxError(
        `The secret in ${context} is encrypted under data key ${keyId}, which is not configured (this server has ${this.keys.map((k) => k.id).join(', ')}, from ${this.source}). Put the key it was sealed with in DATA_KEY_PREVIOUS, or reset this secret.`,
      );
    }
    const iv = Buffer.from(ivText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    try {
      if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new Error('too short');
      const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError(
        `The secret in ${context} could not be decrypted with data key ${keyId}: it was altered, or copied from another row. Reset this secret.`,
      );
    }
  }

  /** True when a stored value is sealed, under the current key (else a rotation or migration has work left). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${VERSION}:${this.current.id}:`);
  }

  /** True when a stored value is in the sealed format at all (under any key). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(`${VERSION}:`) && stored.split(':').length === 4;
  }
}
