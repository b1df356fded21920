import { describe, expect, it } from 'vitest';
import { domainOf, mailboxOf, sameMailbox } from './mailbox.ts';

describe('one mailbox in another spelling', () => {
  it.each([
    ['ada@example.com', 'ADA@Example.COM'],
    ['ada@example.com', 'ada+presale@example.com'],
    ['ada@example.com', 'Ada+a+b@example.com'],
    ['ada.lovelace@gmail.com', 'adalovelace@gmail.com'],
    ['ada.lovelace@gmail.com', 'A.d.A.Lovelace+x@googlemail.com'],
    ['ada@example.com', ' ada@example.com. '],
  ])('%s is %s', (a, b) => {
    expect(sameMailbox(a, b)).toBe(true);
    expect(sameMailbox(b, a)).toBe(true);
  });

  it.each([
    ['ada@example.com', 'ada@example.org'],
    // Dots count outside Gmail-style domains.
    ['ada.lovelace@example.com', 'adalovelace@example.com'],
    ['ada@example.com', 'bob@example.com'],
    ['ada@gmail.com', 'ada@mail.gmail.com'],
  ])('%s is not %s', (a, b) => {
    expect(sameMailbox(a, b)).toBe(false);
  });

  it('keeps a local part that starts with + (there is no tag to drop)', () => {
    expect(mailboxOf('+x@example.com')).toBe('+x@example.com');
  });

  it('reads the domain, lower-cased', () => {
    expect(domainOf('Ada@Example.ORG')).toBe('example.org');
    expect(domainOf('no-at-sign')).toBe(null);
  });
});
