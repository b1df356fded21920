import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { parseDatabaseUrl } from './database.ts';
import { dataKey, deriveKey, SecretBox, type DataKey } from './secret-box.ts';

// Where the data key comes from (docs/decisions/0031-data-key-and-erasure-ledger.md):
//   1. DATA_KEY (and DATA_KEY_PREVIOUS, decrypt only);
//   2. else derived with HKDF from APP_SECRET's keys, the first one current;
//   3. else the key file beside the SQLite file (data/dh.data-key), made once outside production
//      only: a fresh clone works (`npm start` runs as development), the commands run afterwards
//      find the same key, and the key still never lives in the database or its backups;
//   4. else (production, no key file) the start is refused, in words: a key is never made up
//      silently where instances or a restore would need to share it.
// Keys derived from APP_SECRET stay usable for decryption whenever APP_SECRET is set, so moving
// from the derived key to DATA_KEY is "set DATA_KEY, run npm run keys:rotate".

/** A configuration without a usable data key, in words for the terminal. */
export class DataKeyError extends Error {}

const DATA_KEY_PURPOSE = 'data-key/v1';
const KEY_FILE = 'dh.data-key';

/**
 * A 32-byte key written as 64 hex digits or as base64 / base64url (43 characters, `=` optional),
 * e.g. `openssl rand -base64 32`. Anything else is refused rather than stretched or cut.
 */
export function parseKeyText(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/**
 * What the data keys are found from, named after the settings that hold them (env.ts checks
 * them, the keys with parseKeyText): the store asks for these, and knows nothing of the app's
 * configuration beyond them.
 */
export interface DataKeySettings {
  NODE_ENV: string;
  DATA_KEY?: string | undefined;
  DATA_KEY_PREVIOUS?: string[] | undefined;
  /** APP_SECRET's key ring, the current key first. */
  APP_SECRET?: string[] | undefined;
  DATABASE_URL?: string | undefined;
}

/** Where the erasure ledger's copy outside the database goes. */
export interface ErasureLedgerSettings {
  DATABASE_URL?: string | undefined;
  ERASURE_LEDGER?: string | undefined;
}

/** The folder that holds the SQLite file (data/ for PostgreSQL): the app's local data folder. */
function dataFolder(databaseUrl: string | undefined): string {
  const { dialect, target } = parseDatabaseUrl(databaseUrl);
  return dialect === 'sqlite' && target !== ':memory:' ? path.dirname(path.resolve(target)) : path.resolve('data');
}

/** The erasure ledger's file outside the database: ERASURE_LEDGER, else in the data folder. */
export function erasureLedgerPath(env: ErasureLedgerSettings): string {
  return path.resolve(env.ERASURE_LEDGER ?? path.join(dataFolder(env.DATABASE_URL), 'erasure-ledger'));
}

function keyFromFile(file: string): DataKey {
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written whole under a name of its own, then linked into place: owner-only from its first
    // byte, and a second process racing us either links first (we read its key) or finds ours
    // complete. Opening the final name with 'wx' and writing after let a racer read it empty.
    const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
    const fd = openSync(draft, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
    // The key's name durable before anything is sealed with it: a crash must not keep the rows
    // and lose the only key that opens them.
    const dir = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
  const key = parseKeyText(readFileSync(file, 'utf8'));
  if (!key)
    throw new DataKeyError(
      `${file} does not hold a data key (32 bytes as base64 or hex); remove it to have a new one made, or set DATA_KEY.`,
    );
  return dataKey(key);
}

/** The data keys for this configuration, or a DataKeyError that says what to set. */
export function secretBoxFromEnv(env: DataKeySettings): SecretBox {
  const file = path.join(dataFolder(env.DATABASE_URL), KEY_FILE);
  const fileKey = existsSync(file) ? keyFromFile(file) : undefined;
  const fromAppSecret = (env.APP_SECRET ?? []).map((s) => dataKey(deriveKey(s, DATA_KEY_PURPOSE)));
  const fromPrevious = (env.DATA_KEY_PREVIOUS ?? []).map((k) => dataKey(parseKeyText(k) as Buffer));
  // Every key this configuration can name opens what it sealed: moving from the key file or from
  // APP_SECRET to DATA_KEY is "set it, run npm run keys:rotate".
  const others = [...fromPrevious, ...fromAppSecret, ...(fileKey ? [fileKey] : [])];
  if (env.DATA_KEY) return new SecretBox(dataKey(parseKeyText(env.DATA_KEY) as Buffer), others, 'DATA_KEY');
  const [derived] = fromAppSecret;
  if (derived) return new SecretBox(derived, others, 'APP_SECRET');
  if (fileKey) return new SecretBox(fileKey, others, file);
  if (env.NODE_ENV === 'production') {
    throw new DataKeyError(
      `No data key: the stored secrets (authenticator secrets, link keys) are encrypted under a key kept outside the database. Set DATA_KEY to 32 random bytes, e.g. DATA_KEY=$(openssl rand -base64 32), the same on every instance and for every npm run command, and keep a copy where you keep your other secrets (docs/deploy.md, "Keys"). Setting APP_SECRET instead derives one from it. To try the site on this machine, \`npm start\` (NODE_ENV=development) makes a key file in ${path.dirname(file)}.`,
    );
  }
  return new SecretBox(keyFromFile(file), others, `${file} (made for development; set DATA_KEY in production)`);
}
