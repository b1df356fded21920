import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv as loadEnvFrom } from '../env.ts';
import { DataKeyError, secretBoxFromEnv } from './data-keys.ts';
import { dataKey, linkKeyContext, SecretBox, SecretBoxError, totpSecretContext } from './secret-box.ts';

const key = () => dataKey(randomBytes(32));

describe('the secret box', () => {
  it('seals in the v1 format naming the key, and opens only in the row it was sealed for', () => {
    const box = new SecretBox(key());
    const sealed = box.seal('JBSWY3DPEHPK3PXP', totpSecretContext('op-1'));
    expect(sealed).toMatch(new RegExp(`^v1:${box.current.id}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, totpSecretContext('op-1'))).toBe('JBSWY3DPEHPK3PXP');
    // The same value copied into another operator's row, or into another column, does not open.
    expect(() => box.open(sealed, totpSecretContext('op-2'))).toThrow(
      /operators\.totp_secret:op-2 could not be decrypted .*altered, or copied from another row/,
    );
    expect(() => box.open(sealed, linkKeyContext('op-1'))).toThrow(SecretBoxError);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => box.open(tampered, totpSecretContext('op-1'))).toThrow(/could not be decrypted/);
  });

  it('opens with a previous key, names an unknown key in words, and refuses plaintext', () => {
    const old = new SecretBox(key());
    const sealed = old.seal('secret', linkKeyContext('k1'));
    const rotated = new SecretBox(key(), [old.current]);
    expect(rotated.open(sealed, linkKeyContext('k1'))).toBe('secret');
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('secret', linkKeyContext('k1')))).toBe(true);
    const stranger = new SecretBox(key());
    expect(() => stranger.open(sealed, linkKeyContext('k1'))).toThrow(
      new RegExp(
        `link_keys\\.secret:k1 is encrypted under data key ${old.current.id}, which is not configured.*DATA_KEY_PREVIOUS`,
      ),
    );
    expect(() => stranger.open('JBSWY3DPEHPK3PXP', totpSecretContext('x'))).toThrow(
      /not encrypted.*npm run db:migrate/,
    );
  });
});

describe('where the data key comes from', () => {
  const b64 = () => randomBytes(32).toString('base64');
  // A folder with no key file in it, whatever the checkout's data/ holds.
  const DATABASE_URL = `sqlite:${path.join(os.tmpdir(), 'dh-no-such-folder', 'dh.sqlite')}`;
  const loadEnv = (vars: Record<string, string>) => loadEnvFrom({ DATABASE_URL, ...vars });

  it('DATA_KEY first (base64 or hex), with DATA_KEY_PREVIOUS and APP_SECRET-derived keys opening only', () => {
    const k = randomBytes(32);
    const fromB64 = secretBoxFromEnv(loadEnv({ DATA_KEY: k.toString('base64') }));
    const fromHex = secretBoxFromEnv(loadEnv({ DATA_KEY: k.toString('hex') }));
    const fromUrl = secretBoxFromEnv(loadEnv({ DATA_KEY: k.toString('base64url') }));
    expect(fromHex.current.id).toBe(fromB64.current.id);
    expect(fromUrl.current.id).toBe(fromB64.current.id);
    const prev = b64();
    const both = secretBoxFromEnv(loadEnv({ DATA_KEY: b64(), DATA_KEY_PREVIOUS: prev, APP_SECRET: 'a'.repeat(40) }));
    expect(both.source).toBe('DATA_KEY');
    expect(both.previous).toHaveLength(2);
  });

  it('else derived from the first APP_SECRET key (the same on every instance), the older ones opening only', () => {
    const a = secretBoxFromEnv(loadEnv({ APP_SECRET: `${'n'.repeat(40)},${'o'.repeat(40)}` }));
    const b = secretBoxFromEnv(loadEnv({ APP_SECRET: 'n'.repeat(40) }));
    expect(a.source).toBe('APP_SECRET');
    expect(a.current.id).toBe(b.current.id);
    expect(a.previous).toHaveLength(1);
    const sealed = secretBoxFromEnv(loadEnv({ APP_SECRET: 'o'.repeat(40) })).seal('x', 'c');
    expect(a.open(sealed, 'c')).toBe('x');
  });

  it('production without either (and no key file) refuses in words; a key of the wrong size is refused by the env check', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-nokey-'));
    const DATABASE_URL = `sqlite:${path.join(dir, 'dh.sqlite')}`;
    try {
      expect(() => secretBoxFromEnv(loadEnv({ NODE_ENV: 'production', DATABASE_URL }))).toThrow(DataKeyError);
      expect(() => secretBoxFromEnv(loadEnv({ DATABASE_URL }))).toThrow(
        /No data key: .*DATA_KEY=\$\(openssl rand -base64 32\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => loadEnv({ DATA_KEY: 'too-short' })).toThrow(
      /DATA_KEY: must be 32 random bytes as base64 or 64 hex digits/,
    );
    expect(() => loadEnv({ DATA_KEY_PREVIOUS: `${b64()},nope` })).toThrow(/DATA_KEY_PREVIOUS: must be 32 random bytes/);
  });
});

describe('outside production, with no key configured', () => {
  it('makes one key file beside the SQLite file, owner-only, and uses it from then on', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-keyfile-'));
    try {
      const env = loadEnvFrom({
        NODE_ENV: 'development',
        DATABASE_URL: `sqlite:${path.join(dir, 'data', 'dh.sqlite')}`,
      });
      const first = secretBoxFromEnv(env);
      const file = path.join(dir, 'data', 'dh.data-key');
      expect(first.source).toContain(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // Written under a draft name and linked into place; the draft does not stay behind.
      expect(readdirSync(path.dirname(file))).toEqual(['dh.data-key']);
      expect(secretBoxFromEnv(env).current.id).toBe(first.current.id);
      expect(readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      // Production then uses the file that is there (it never makes one), and DATA_KEY set later
      // still opens what the file's key sealed, until npm run keys:rotate.
      expect(secretBoxFromEnv({ ...env, NODE_ENV: 'production' }).current.id).toBe(first.current.id);
      const withKey = secretBoxFromEnv({ ...env, DATA_KEY: randomBytes(32).toString('base64') });
      expect(withKey.open(first.seal('x', 'c'), 'c')).toBe('x');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
