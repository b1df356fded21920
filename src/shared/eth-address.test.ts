import { describe, expect, it } from 'vitest';
import { checksumProblem, toChecksumAddress } from './eth-address.ts';

// The test vectors of EIP-55 itself.
const VECTORS = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];
const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

// The content file's contractAddress, checked with it: content/site-content.test.ts.
describe('EIP-55 checksum', () => {
  it('gives the checksummed form of the EIP’s own vectors from any case', () => {
    for (const v of VECTORS) {
      expect(toChecksumAddress(v.toLowerCase())).toBe(v);
      expect(toChecksumAddress(`0x${v.slice(2).toUpperCase()}`)).toBe(v);
      expect(checksumProblem(v)).toBeNull();
    }
  });

  it('refuses a wrong case, a wrong length and non-hex, saying why', () => {
    const flipped = OFFICIAL.replace('a', 'A');
    expect(checksumProblem(flipped)).toMatch(/fails its EIP-55 checksum .* 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/);
    expect(checksumProblem(OFFICIAL.slice(0, -1))).toMatch(/0x followed by 40 hexadecimal/);
    expect(checksumProblem(`0x${'g'.repeat(40)}`)).toMatch(/0x followed by 40 hexadecimal/);
  });
});
