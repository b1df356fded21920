import { describe, expect, it } from 'vitest';
import { maskEmail } from './subscribers.ts';

describe('maskEmail', () => {
  it('keeps the first character of the local part and the whole domain, and hides the length', () => {
    expect(maskEmail('ada.lovelace@example.com')).toBe('a•••@example.com');
    expect(maskEmail('a@example.com')).toBe('a•••@example.com');
    expect(maskEmail('Bob+presale@Mail.Example.ORG')).toBe('B•••@Mail.Example.ORG');
  });

  it('takes a whole character of any script, never half of one', () => {
    expect(maskEmail('émile@zola.fr')).toBe('é•••@zola.fr');
    expect(maskEmail('😀holder@example.com')).toBe('😀•••@example.com');
  });

  it('splits at the last @ (a quoted local part may hold one), and masks a string without one whole', () => {
    expect(maskEmail('"a@b"@example.com')).toBe('"•••@example.com');
    expect(maskEmail('not-an-address')).toBe('n•••');
  });
});
