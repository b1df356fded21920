import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// What the real process prints when it cannot start: the variable and the problem, never a
// password or a secret, whatever the configuration or the driver says.
const main = path.resolve(import.meta.dirname, '../../dist/server/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? '',
        DATA_KEY: process.env.DATA_KEY ?? '',
        PORT: '0',
        OUTBOX_DIR: path.join(dir, 'outbox'),
        DATABASE_URL: `sqlite:${path.join(dir, 'dh.sqlite')}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += String(c)));
    child.stderr.on('data', (c: Buffer) => (output += String(c)));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('a start that fails says why without printing secrets', () => {
  it.each([
    ['APP_SECRET too short', { APP_SECRET: 'canary-secret-short' }, /APP_SECRET: .*at least 32 characters/],
    [
      'no data key (production is the default)',
      { DATA_KEY: '' },
      /cannot start\. No data key: .*Set DATA_KEY to 32 random bytes, e\.g\. DATA_KEY=\$\(openssl rand -base64 32\)/,
    ],
    [
      'a data key that is not 32 bytes',
      { DATA_KEY: 'canary-data-key' },
      /DATA_KEY: must be 32 random bytes as base64 or 64 hex digits/,
    ],
    [
      'DATABASE_URL of another kind',
      { DATABASE_URL: 'mysql://dh:canary-password@db.internal/dh' },
      /DATABASE_URL: must be sqlite:/,
    ],
    [
      'SMTP_URL of another kind',
      { SMTP_URL: 'http://mailer:canary-password@mail.internal' },
      /SMTP_URL: must be smtp:/,
    ],
    [
      'a database that is not there',
      { DATABASE_URL: 'postgres://dh:canary-password@127.0.0.1:1/dh' },
      /DATABASE_URL could not be opened: .*ECONNREFUSED/,
    ],
    [
      'a database URL that cannot be read',
      { DATABASE_URL: 'postgres://dh:canary-password@[::1/dh' },
      /DATABASE_URL could not be opened/,
    ],
  ])('%s', async (_label, env, expected) => {
    const { code, output } = await start(env);
    expect(code).toBe(1);
    expect(output).toMatch(expected);
    expect(output).not.toContain('canary');
  });
});

describe('a Redis that cannot be reached', () => {
  it('does not stop the start: the server serves, says so in words, and never prints the password', async () => {
    const child = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH ?? '',
        DATA_KEY: process.env.DATA_KEY ?? '',
        PORT: '0',
        OUTBOX_DIR: path.join(dir, 'outbox'),
        DATABASE_URL: `sqlite:${path.join(dir, 'redis-down.sqlite')}`,
        REDIS_URL: 'redis://default:canary-password@127.0.0.1:1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const onData = (c: Buffer) => {
        output += String(c);
        if (output.includes('Diamond Hand is up')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`the server exited (${code}) instead of starting: ${output}`)));
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toMatch(
      /Redis cannot be reached \(.*ECONNREFUSED.*\); limits count per instance until it answers again\./,
    );
    expect(output).toMatch(/limits: shared in Redis/);
    expect(output).not.toContain('canary');
    expect(output).not.toMatch(/"stack"|\\n\s+at /);
  });
});
