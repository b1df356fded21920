import { describe, expect, it } from 'vitest';
import { parseSignup, signupReplyErrors } from './signup-schema.ts';

describe('the sign-up schema speaks in codes', () => {
  // That the words name the limits: content/messages/translations.test.ts (words live in content/).
  it('gives one code per field, first problem first', () => {
    const parsed = parseSignup({ name: 'x'.repeat(101), email: 'a'.repeat(65) + '@example.com', comment: '\u0007' });
    expect(parsed).toEqual({
      ok: false,
      errors: { name: 'name.tooLong', email: 'email.localTooLong', comment: 'comment.control' },
    });
  });

  it('reads a reply back to codes it knows, and never shows what a reply made up', () => {
    expect(
      signupReplyErrors({ name: 'name.url', email: 'Click here', comment: 'toString', form: 'form.unknownFields' }),
    ).toEqual({ name: 'name.url', email: 'invalid', comment: 'invalid', form: 'form.unknownFields' });
    expect(signupReplyErrors({ other: 'name.url' })).toEqual({ form: 'form.shape' });
    expect(signupReplyErrors(undefined)).toEqual({});
  });
});
