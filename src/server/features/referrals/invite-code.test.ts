import { describe, expect, it } from 'vitest';
import { isInviteCode } from '../../../shared/referrals.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { openTestStore } from '../../test/test-store.ts';
import { newInviteCode } from './invite-code.ts';
import { ensureInviteCode } from './referral-store.ts';

// An invite code must say nothing about its owner and be beyond guessing: 128 random bits.
describe('invite codes', () => {
  const many = Array.from({ length: 20_000 }, newInviteCode);

  it('are 22 base64url characters (128 bits), each one the shared spelling accepts', () => {
    for (const code of many.slice(0, 1000)) {
      expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(code, 'base64url')).toHaveLength(16);
      expect(isInviteCode(code)).toBe(true);
    }
  });

  it('never repeat across many', () => {
    expect(new Set(many).size).toBe(many.length);
  });

  it('look random: every character about as common in every position', () => {
    // 20,000 codes × 21 full positions (the 22nd holds 2 bits): each of 64 characters expected
    // ~312 times per position; a code derived from anything structured would skew it far more.
    for (let position = 0; position < 21; position++) {
      const counts = new Map<string, number>();
      for (const code of many) counts.set(code[position] ?? '', (counts.get(code[position] ?? '') ?? 0) + 1);
      expect(counts.size).toBe(64);
      const chi = [...counts.values()].reduce((sum, n) => sum + (n - many.length / 64) ** 2 / (many.length / 64), 0);
      // 63 degrees of freedom: 130 is far beyond p = 0.00001.
      expect(chi, `position ${position}`).toBeLessThan(130);
    }
  });

  it('are not derived from the email or the id (made without them: the same person twice gets two)', () => {
    // The generator takes no argument at all; two codes in a row share no prefix beyond chance.
    expect(newInviteCode.length).toBe(0);
    const [a, b] = [newInviteCode(), newInviteCode()];
    expect(a).not.toBe(b);
    for (const code of many.slice(0, 200)) expect(isInviteCode(`${code}=`)).toBe(false);
  });

  it('are made afresh for the same person: nothing of their id or address goes in', async () => {
    const store = await openTestStore('sqlite');
    try {
      const email = 'ada@example.com';
      const id = await insertSubscriber(store.db, email, { status: 'confirmed' });
      const now = new Date();
      const first = await ensureInviteCode(store.db, id, null, now);
      // Asked again, the same person keeps theirs.
      expect(await ensureInviteCode(store.db, id, null, now)).toBe(first);
      await store.db.deleteFrom('referral_codes').execute();
      const second = await ensureInviteCode(store.db, id, null, now);
      expect(second).not.toBe(first);
      for (const code of [first, second]) {
        for (const own of [id, email, id.replace(/-/g, '')]) {
          expect(code).not.toContain(Buffer.from(own).toString('base64url').slice(0, 8));
          expect(own).not.toContain(code.slice(0, 8));
        }
      }
    } finally {
      await store.destroy();
    }
  });

  it('refuses other spellings on the way in', () => {
    for (const bad of [
      '',
      'short',
      'A'.repeat(21),
      'A'.repeat(23),
      `${'A'.repeat(21)}+`,
      `${'A'.repeat(21)}/`,
      42,
      null,
      ['A'.repeat(22)],
    ])
      expect(isInviteCode(bad)).toBe(false);
  });
});
