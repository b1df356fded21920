import { describe, expect, it } from 'vitest';
import { toPublicAddress } from './address.ts';

describe('which addresses are looked up at all', () => {
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '100.64.0.1',
    '169.254.1.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '239.255.255.250',
    '192.0.0.8',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '240.0.0.1',
    '192.88.99.1',
    '192.175.48.6',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    '2001:2::1',
    '100::1',
    '3fff::1',
    '5f00::1',
    '64:ff9b:1::1',
    '4000::1',
    '::1234',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:0a00:0001',
    '64:ff9b::192.168.0.1',
    '2002:0a00:0001::1',
  ])('%s is not public', (ip) => {
    expect(toPublicAddress(ip)).toBeNull();
  });

  it.each([
    'not an ip',
    '',
    ' ',
    '127.1',
    '0x7f.0.0.1',
    '010.0.0.1',
    '8.8.8',
    '1.2.3.4.5',
    '8.8.8.8 ',
    ' 8.8.8.8',
    '256.1.1.1',
    '[::1]',
    '[2001:4860:4860::8888]',
    'fe80::1%eth0',
    '2001:4860:4860::8888%eth0',
    '2001:4860:4860::8888/64',
    '8.8.8.8:443',
    ':::',
    'g::1',
    '1'.repeat(65),
    '8.8.8.8\n',
  ])('%j is not an address', (ip) => {
    expect(toPublicAddress(ip)).toBeNull();
  });

  it('never throws on values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['8.8.8.8'], Symbol('x')]) {
      expect(toPublicAddress(value)).toBeNull();
    }
  });

  it('reads public IPv4 as its 32-bit value', () => {
    expect(toPublicAddress('8.8.8.8')).toEqual({ version: 4, text: '8.8.8.8', value: 0x08080808 });
    expect(toPublicAddress('255.255.255.254')).toBeNull(); // 240.0.0.0/4 is reserved
    expect(toPublicAddress('223.255.255.255')).toMatchObject({ value: 0xdfffffff });
  });

  it('reads public IPv6 as four words and prints it canonically', () => {
    expect(toPublicAddress('2001:4860:4860:0:0:0:0:8888')).toEqual({
      version: 6,
      text: '2001:4860:4860::8888',
      words: [0x20014860, 0x48600000, 0, 0x8888],
    });
    expect(toPublicAddress('2A00:1450:4001:800::200E')?.text).toBe('2a00:1450:4001:800::200e');
  });

  it('unwraps IPv4 carried in IPv6 (mapped, NAT64, 6to4) and judges the IPv4', () => {
    for (const ip of [
      '::ffff:8.8.8.8',
      '::ffff:0808:0808',
      '::ffff:0:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2002:0808:0808::1',
    ]) {
      expect(toPublicAddress(ip), ip).toEqual({ version: 4, text: '8.8.8.8', value: 0x08080808 });
    }
  });
});
