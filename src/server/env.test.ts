import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, envSlices, loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('gives defaults that make a fresh clone work', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('treats an empty variable as unset and strips a trailing slash from PUBLIC_URL', () => {
    const env = loadEnv({ PORT: '', PUBLIC_URL: 'https://dh.example/' });
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_URL).toBe('https://dh.example');
  });

  it('names each bad variable in words', () => {
    let message = '';
    try {
      loadEnv({ PORT: 'eighty', PUBLIC_URL: 'not a url', LOG_LEVEL: 'loud' });
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/PORT: must be a number/);
    expect(message).toMatch(/PUBLIC_URL: must be a full URL/);
    expect(message).toMatch(/LOG_LEVEL: /);
  });

  it('refuses a port out of range', () => {
    expect(() => loadEnv({ PORT: '70000' })).toThrow(/PORT: must be 0–65535/);
  });
});

describe('loadEnv: store, mail and abuse settings', () => {
  it('defaults to SQLite, the file outbox and no trusted proxy', () => {
    const env = loadEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.OUTBOX_DIR).toBe('data/outbox');
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.MAIL_FROM).toBe('Diamond Hand <no-reply@localhost>');
    expect(env.SIGNUP_MIN_FILL_SECONDS).toBe(2);
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.REDIS_KEY_PREFIX).toBe('dh:');
  });

  it('reads TRUST_PROXY as a boolean, a hop count or addresses', () => {
    expect(loadEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).TRUST_PROXY).toBe('10.0.0.1, 10.0.0.0/8');
    expect(() => loadEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY: must be true, false/);
  });

  it('refuses a database or mail URL it cannot use, naming the variable', () => {
    expect(() => loadEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be sqlite:/);
    expect(() => loadEnv({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL: must be smtp:/);
    expect(() => loadEnv({ REDIS_URL: 'cache.internal:6379' })).toThrow(/REDIS_URL: must be redis:/);
    expect(loadEnv({ REDIS_URL: 'rediss://default:pw@cache.internal:6380/2' }).REDIS_URL).toBe(
      'rediss://default:pw@cache.internal:6380/2',
    );
    expect(() => loadEnv({ REDIS_KEY_PREFIX: 'two words' })).toThrow(/REDIS_KEY_PREFIX: must be 1–64/);
    expect(() => loadEnv({ SIGNUP_MIN_FILL_SECONDS: '10' })).toThrow(/SIGNUP_MIN_FILL_SECONDS: must be 0–3/);
  });

  it('writes a line for every request unless LOG_REQUESTS=off, and refuses any other value in words', () => {
    expect(loadEnv({}).LOG_REQUESTS).toBe('on');
    expect(loadEnv({ LOG_REQUESTS: ' off ' }).LOG_REQUESTS).toBe('off');
    expect(() => loadEnv({ LOG_REQUESTS: 'false' })).toThrow(
      /LOG_REQUESTS: must be on \(a line for every request: the default\) or off/,
    );
  });

  it('leaves /metrics off unless METRICS_TOKEN is set, and takes only a long, header-safe token', () => {
    expect(loadEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ METRICS_TOKEN: ' 0123456789abcdef0123 ' }).METRICS_TOKEN).toBe('0123456789abcdef0123');
    expect(() => loadEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadEnv({ METRICS_TOKEN: '0123456789 abcdef0123' })).toThrow(
      /METRICS_TOKEN: must be printable characters without spaces/,
    );
  });
});

describe('loadEnv: errors name the variable, never its value', () => {
  // Each bad value carries a marker, as a password or a secret would.
  const bad: Record<string, string> = {
    PORT: 'canary-port',
    HOST: ' ',
    PUBLIC_URL: 'ftp://canary-host/',
    LOG_LEVEL: 'canary-level',
    NODE_ENV: 'canary-env',
    DATABASE_URL: 'mysql://dh:canary-db-password@db.internal/dh',
    SMTP_URL: 'http://mailer:canary-smtp-password@mail.internal',
    REDIS_URL: 'http://default:canary-redis-password@cache.internal',
    REDIS_KEY_PREFIX: 'canary prefix',
    MAIL_FROM: 'ca',
    APP_SECRET: 'canary-too-short',
    TRUST_PROXY: 'canary-proxy',
    SIGNUP_MIN_FILL_SECONDS: 'canary-seconds',
    SIGNUP_RATE_LIMIT: 'canary-rate',
    VISIT_RETENTION_DAYS: 'canary-days',
    VISIT_RATE_LIMIT: 'canary-visits',
    GEO_LOOKUP_URL: 'http://canary-geo.example',
    METRICS_TOKEN: 'canary-short',
  };

  it.each(Object.entries(bad))('%s', (name, value) => {
    let message = '';
    try {
      loadEnv({ [name]: value });
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      message = (e as Error).message;
    }
    expect(message).toContain(`${name}: `);
    expect(message).not.toContain('canary');
    if (value.trim().length > 2) expect(message).not.toContain(value.trim());
  });
});

describe('loadEnv: APP_SECRET as a key ring', () => {
  it('reads one key or several, comma-separated, newest first', () => {
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(40);
    expect(loadEnv({ APP_SECRET: a }).APP_SECRET).toEqual([a]);
    expect(loadEnv({ APP_SECRET: ` ${b} , ${a},` }).APP_SECRET).toEqual([b, a]);
    expect(loadEnv({}).APP_SECRET).toBeUndefined();
  });

  it('refuses a short key anywhere in the ring, naming the variable', () => {
    expect(() => loadEnv({ APP_SECRET: `${'a'.repeat(32)},short` })).toThrow(
      /APP_SECRET.*each key must be at least 32 characters/,
    );
    expect(() => loadEnv({ APP_SECRET: ' , ' })).toThrow(/APP_SECRET.*at least one key/);
  });
});

describe('loadEnv: MAIL_CONCURRENCY', () => {
  it('sends 4 emails at once unless told otherwise, and refuses a count it cannot use, in words', () => {
    expect(loadEnv({}).MAIL_CONCURRENCY).toBe(4);
    expect(loadEnv({ MAIL_CONCURRENCY: '8' }).MAIL_CONCURRENCY).toBe(8);
    expect(() => loadEnv({ MAIL_CONCURRENCY: '0' })).toThrow(/MAIL_CONCURRENCY: must be at least 1 email sent at once/);
    expect(() => loadEnv({ MAIL_CONCURRENCY: '2.5' })).toThrow(/MAIL_CONCURRENCY: must be a whole number/);
    expect(() => loadEnv({ MAIL_CONCURRENCY: 'many' })).toThrow(/MAIL_CONCURRENCY: must be a whole number/);
    expect(() => loadEnv({ MAIL_CONCURRENCY: '500' })).toThrow(/MAIL_CONCURRENCY: must be at most 50/);
  });
});

describe('loadEnv: PERSONAL_DATA_DAILY_ALLOWANCE', () => {
  it('allows 200 personal records a day unless told otherwise, and refuses a count it cannot use, in words', () => {
    expect(loadEnv({}).PERSONAL_DATA_DAILY_ALLOWANCE).toBe(200);
    expect(loadEnv({ PERSONAL_DATA_DAILY_ALLOWANCE: '0' }).PERSONAL_DATA_DAILY_ALLOWANCE).toBe(0);
    expect(() => loadEnv({ PERSONAL_DATA_DAILY_ALLOWANCE: '-1' })).toThrow(
      /PERSONAL_DATA_DAILY_ALLOWANCE: must be 0 \(every read needs a code\) or more/,
    );
    expect(() => loadEnv({ PERSONAL_DATA_DAILY_ALLOWANCE: 'lots' })).toThrow(
      /PERSONAL_DATA_DAILY_ALLOWANCE: must be a whole number of records/,
    );
    expect(() => loadEnv({ PERSONAL_DATA_DAILY_ALLOWANCE: '1.5' })).toThrow(
      /PERSONAL_DATA_DAILY_ALLOWANCE: must be a whole number of records/,
    );
  });
});

describe('loadEnv: BROADCAST_APPROVALS', () => {
  it('is two people by default; a team of one says 1; nothing else is accepted, in words', () => {
    expect(loadEnv({}).BROADCAST_APPROVALS).toBe(2);
    expect(loadEnv({ BROADCAST_APPROVALS: '1' }).BROADCAST_APPROVALS).toBe(1);
    expect(loadEnv({ BROADCAST_APPROVALS: ' 2 ' }).BROADCAST_APPROVALS).toBe(2);
    for (const bad of ['0', '3', 'yes', '1.0']) {
      expect(() => loadEnv({ BROADCAST_APPROVALS: bad }), bad).toThrow(
        /BROADCAST_APPROVALS: must be 2 \(a second operator approves each broadcast: the default\) or 1 \(a team of one: nobody checks sends\)/,
      );
    }
  });
});

describe('loadEnv: the slices', () => {
  it('reads each variable in one place: the core or one feature, never two (a later one would win unseen)', () => {
    const names = envSlices.flatMap((slice) => Object.keys(slice.shape));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(Object.keys(loadEnv({}))));
  });

  it("has a row in the README's configuration table for every variable (a row may name a pair)", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const table = readme.split('\n## Configuration\n')[1]?.split('\n## ')[0] ?? '';
    const documented = new Set(
      table
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1])),
    );
    const names = envSlices.flatMap((slice) => Object.keys(slice.shape));
    expect(names.filter((name) => !documented.has(name))).toEqual([]);
  });
});
