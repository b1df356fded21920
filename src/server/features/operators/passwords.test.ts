import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.ts';
import { browserSummary } from './user-agent.ts';

describe('operator passwords', () => {
  it('hashes with argon2id at OWASP parameters and verifies', async () => {
    const hash = await hashPassword('a long enough passphrase');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, 'a long enough passphrase')).toBe(true);
    expect(await verifyPassword(hash, 'a long enough passphrasf')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('asks for 12 characters, not a common password, not the address', () => {
    expect(passwordProblem('elevenchars', 'a@example.com')).toMatch(/at least 12/);
    expect(passwordProblem('qwertyuiop123', 'a@example.com')).toMatch(/common passwords/);
    expect(passwordProblem('aaaaaaaaaaaaaaaa', 'a@example.com')).toMatch(/repeats/);
    expect(passwordProblem('satoshi-nakamoto1', 'satoshi-nakamoto@example.com')).toMatch(/too close/);
    expect(passwordProblem('violet kettle harbour', 'a@example.com')).toBeNull();
  });
});

describe('browserSummary', () => {
  it('names the browser and system only', () => {
    expect(browserSummary('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox on Windows',
    );
    expect(browserSummary(undefined)).toBe('Unknown browser');
  });
});
