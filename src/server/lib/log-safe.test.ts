import { describe, expect, it } from 'vitest';
import { errorText, logSafeError, redact } from './log-safe.ts';

describe('redact', () => {
  it.each([
    ['550 5.1.1 <pat@example.com>: Recipient address rejected', '550 5.1.1 <[address]>: Recipient address rejected'],
    ['Key (email_key)=(pat.o+dh@example.co.uk) already exists.', 'Key (email_key)=([address]) already exists.'],
    [
      'connect to postgres://dh:hunter2@db.internal:5432/dh failed',
      'connect to postgres://[redacted]@db.internal:5432/dh failed',
    ],
    ['GET https://dh.example/confirm?token=abc123 failed', 'GET https://dh.example/confirm?[redacted] failed'],
    ['bad sig=AbC_123 and token=xyz', 'bad sig=[redacted] and token=[redacted]'],
    ['connect ECONNREFUSED 127.0.0.1:5432', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['refused jürgen@bücher.de', 'refused [address]'],
  ])('%s', (input, output) => {
    expect(redact(input)).toBe(output);
  });

  it('replaces the values it is told are secret, wherever they appear', () => {
    expect(redact('key is s3cr3t-value, again s3cr3t-value', ['s3cr3t-value'])).toBe(
      'key is [redacted], again [redacted]',
    );
  });
});

describe('logSafeError', () => {
  it('keeps type, code, message and stack, redacted, and nothing else an error carries', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "subscribers_email_key"'), {
      code: '23505',
      detail: 'Key (email_key)=(pat@example.com) already exists.',
    });
    const safe = logSafeError(error);
    expect(Object.keys(safe).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(JSON.stringify(safe)).not.toContain('pat@example.com');
    expect(safe.code).toBe('23505');
  });

  it('errorText is the redacted message', () => {
    expect(errorText(new Error('to pat@example.com'))).toBe('to [address]');
    expect(errorText('plain')).toBe('plain');
  });
});
