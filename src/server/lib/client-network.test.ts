import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork', () => {
  it.each([
    ['81.2.69.142', '81.2.69.142'],
    ['::ffff:81.2.69.142', '81.2.69.142'],
    ['2a00:1450:4001:800::200e', '2a00:1450:4001:800::'],
    ['2a00:1450:4001:800:ffff:1:2:3', '2a00:1450:4001:800::'],
    ['2A00:1450:4001:800::1', '2a00:1450:4001:800::'],
    ['2a00:1450:4001:801::1', '2a00:1450:4001:801::'],
    ['not an address', 'not an address'],
  ])('%s → %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});

it('counts every address of one IPv6 /64 as one client, and the next /64 as another', () => {
  expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe(clientNetwork('2001:db8:1:2:bbbb::2'));
  expect(clientNetwork('2001:db8:1:2::1')).not.toBe(clientNetwork('2001:db8:1:3::1'));
});
