import { toChecksumAddress } from '../../../shared/eth-address.ts';

/**
 * A wallet as people are used to reading it: "0x1234…abcd", the first four and the last four hex
 * digits of its EIP-55 form, as wallets show it. Only where nothing is decided (an email's
 * subject): those 32 bits are cheap to match with a look-alike address made for the purpose
 * (address poisoning), so where a person decides, the whole address is shown (`groupedAddress`).
 */
export const shortAddress = (address: string): string => {
  const checksummed = toChecksumAddress(address);
  return `${checksummed.slice(0, 6)}…${checksummed.slice(-4)}`;
};

/**
 * The whole address, checksummed (EIP-55), in groups of four after the 0x, for a person to check
 * against their wallet: "0x1234 5678 9AbC …" (ten groups). Shown left to right in every language.
 */
export const groupedAddress = (address: string): string => {
  const hex = toChecksumAddress(address).slice(2);
  return `0x${(hex.match(/.{1,4}/g) ?? []).join(' ')}`;
};
