import { describe, expect, it } from 'vitest';
import { toPublicAddress, type PublicAddress } from './address.ts';
import { buildAsnTable } from './asn-table.ts';

const csv = (text: string) => new TextEncoder().encode(text);
const v4 = (ip: string): PublicAddress => {
  const a = toPublicAddress(ip);
  if (!a) throw new Error(`not public: ${ip}`);
  return a;
};
const n4 = (ip: string) => ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);

describe('ASN table built from the -num CSVs', () => {
  it('finds ranges inclusively at both ends and nothing in the gaps', () => {
    const table = buildAsnTable(
      csv(
        `${n4('8.8.4.0')},${n4('8.8.4.255')},15169,Google LLC\n${n4('8.8.8.0')},${n4('8.8.8.255')},15169,Google LLC\n`,
      ),
      csv(''),
    );
    expect(table.lookup(v4('8.8.4.0'))).toBe('AS15169 Google LLC');
    expect(table.lookup(v4('8.8.8.255'))).toBe('AS15169 Google LLC');
    expect(table.lookup(v4('8.8.5.0'))).toBeUndefined();
    expect(table.lookup(v4('8.8.9.0'))).toBeUndefined();
    expect(table.lookup(v4('1.1.1.1'))).toBeUndefined();
    expect(table.stats.orgs).toBe(1);
  });

  it('reads quoted names with commas and doubled quotes, CRLF and blank lines', () => {
    const table = buildAsnTable(
      csv(
        `16777216,16777471,13335,"Cloudflare, Inc."\r\n\r\n35309568,35313663,201907,"LLC ""SPUTNIK"""\r\n35313664,35313670,64512,\n`,
      ),
      csv(''),
    );
    expect(table.lookup(v4('1.0.0.1'))).toBe('AS13335 Cloudflare, Inc.');
    expect(table.lookup(v4('2.26.200.1'))).toBe('AS201907 LLC "SPUTNIK"');
    expect(table.lookup(v4('2.26.216.0'))).toBe('AS64512');
  });

  it('keeps non-ASCII names intact', () => {
    const table = buildAsnTable(csv('16777216,16777471,3320,Deutsche Telekom AG – Köln\n'), csv(''));
    expect(table.lookup(v4('1.0.0.9'))).toBe('AS3320 Deutsche Telekom AG – Köln');
  });

  it('skips malformed rows and AS0 ("not routed") instead of failing', () => {
    const table = buildAsnTable(
      csv(
        'x,1,2,Bad\n16777216,16777471,0,Not routed\n16777472,16777216,5,End before start\n99999999999,99999999999,5,Too big\n16843008,16843263,7,Good\n',
      ),
      csv(''),
    );
    expect(table.stats.skippedRows).toBe(4);
    expect(table.stats.v4Ranges).toBe(1);
    expect(table.lookup(v4('1.0.0.1'))).toBeUndefined();
    expect(table.lookup(v4('1.1.1.1'))).toBe('AS7 Good');
  });

  it('sorts unsorted input and lets the later row win where rows overlap', () => {
    // The packaged data has one such overlap (214.95.0.0–215.0.255.255 vs 215.0.0.0–215.1.3.255).
    const table = buildAsnTable(
      csv(
        [
          `${n4('215.0.0.0')},${n4('215.1.3.255')},721,DoD Network Information Center`,
          `${n4('214.95.0.0')},${n4('215.0.255.255')},749,United States Department of Defense (DoD)`,
        ].join('\n'),
      ),
      csv(''),
    );
    expect(table.stats.clippedOverlaps).toBe(1);
    expect(table.lookup(v4('214.95.0.1'))).toBe('AS749 United States Department of Defense (DoD)');
    expect(table.lookup(v4('214.255.255.255'))).toBe('AS749 United States Department of Defense (DoD)');
    expect(table.lookup(v4('215.0.0.0'))).toBe('AS721 DoD Network Information Center');
    expect(table.lookup(v4('215.1.3.255'))).toBe('AS721 DoD Network Information Center');
  });

  it('handles IPv6 bounds far beyond 2^64 without losing precision', () => {
    const big = (ip: string) => {
      const a = toPublicAddress(ip);
      if (a?.version !== 6) throw new Error(ip);
      return a.words.reduce((acc, w) => (acc << 32n) | BigInt(w), 0n).toString();
    };
    const table = buildAsnTable(
      csv(''),
      csv(
        [
          `${big('2001:4860::')},${big('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')},15169,Google LLC`,
          `${big('2a00:1450::')},${big('2a00:1450:ffff:ffff:ffff:ffff:ffff:ffff')},15169,Google LLC`,
        ].join('\n'),
      ),
    );
    // The number the packaged asn-ipv6-num.csv starts Google's 2001:4860::/32 row with.
    expect(big('2001:4860::')).toBe('42541956101370907050197289607612071936');
    expect(table.lookup(v4('2001:4860:4860::8888'))).toBe('AS15169 Google LLC');
    expect(table.lookup(v4('2001:4860:ffff:ffff:ffff:ffff:ffff:ffff'))).toBe('AS15169 Google LLC');
    expect(table.lookup(v4('2001:4861::'))).toBeUndefined();
    expect(table.lookup(v4('2001:485f:ffff:ffff:ffff:ffff:ffff:ffff'))).toBeUndefined();
    expect(table.lookup(v4('2a00:1450:4001:800::200e'))).toBe('AS15169 Google LLC');
    expect(table.stats.orgs).toBe(1);
  });
});
