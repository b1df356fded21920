import { describe, expect, it } from 'vitest';
import { parseSiteContent } from '../src/shared/content-schema.ts';
import { siteContent } from './site-content.ts';

// The content file with the build's schema (src/shared/content-schema.ts); moved here from
// src/shared/eth-address.test.ts, since src/shared reads nothing from content/.
const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('the content file', () => {
  it('the content file: contractAddress is optional, null when shipped, and a bad one stops the build naming the field', () => {
    expect(parseSiteContent(siteContent).contractAddress).toBeNull();
    const without: Partial<typeof siteContent> = { ...siteContent };
    delete without.contractAddress;
    expect(parseSiteContent(without).contractAddress).toBeNull();
    expect(parseSiteContent({ ...siteContent, contractAddress: OFFICIAL }).contractAddress).toBe(OFFICIAL);
    expect(() => parseSiteContent({ ...siteContent, contractAddress: OFFICIAL.toLowerCase() })).toThrow(
      /contractAddress: fails its EIP-55 checksum/,
    );
    expect(() => parseSiteContent({ ...siteContent, contractAddress: '0x1234' })).toThrow(
      /contractAddress: must be 0x followed by 40/,
    );
  });
});
