import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileMailer } from './mailer.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'dh-mailer-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the file mailer (SMTP_URL unset)', () => {
  it('writes the email to a file only its owner can read, and logs the file name and nothing else', async () => {
    const lines: string[] = [];
    const dir = path.join(root, 'data', 'outbox');
    const mailer = fileMailer(dir, 'DH <no-reply@dh.example>', (m) => lines.push(m));
    const link = 'https://dh.example/confirm?token=canary-token-1234567890';
    await mailer.send({
      to: 'pat@example.com',
      subject: 'Confirm',
      text: `Open ${link}`,
      html: `<a href="${link}">Confirm</a>`,
    });
    mailer.close();

    const [file, ...more] = readdirSync(dir);
    expect(more).toEqual([]);
    const full = path.join(dir, file ?? '');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(root, 'data')).mode & 0o777).toBe(0o700);
    expect(statSync(full).mode & 0o777).toBe(0o600);
    expect(readFileSync(full, 'utf8')).toContain('pat@example.com');

    expect(lines).toEqual([`Mail written to ${full}`]);
    expect(lines.join('\n')).not.toMatch(/pat@example\.com|canary-token|https?:/);
  });
});
