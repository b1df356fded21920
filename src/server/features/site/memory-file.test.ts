import { describe, expect, it } from 'vitest';
import { pickEncoding } from './memory-file.ts';

describe('pickEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
  ] as const)('%j → %j', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});
