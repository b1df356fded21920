import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// Ethereum addresses: the EIP-55 checksum (the content file's contractAddress, and how a
// broadcast names an address it refuses: src/server/features/broadcast/ethereum-addresses.ts). The hash comes from
// @noble/hashes; EIP-55 itself is a few lines no library here does on its own without a whole
// Ethereum client.

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 mixed-case form of an address (any case in). */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const c = hex[i] ?? '';
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** Why an address is not a valid EIP-55 address, or null when it is. */
export function checksumProblem(address: string): string | null {
  if (!ADDRESS.test(address)) return 'must be 0x followed by 40 hexadecimal characters';
  if (toChecksumAddress(address) !== address) {
    return `fails its EIP-55 checksum (mixed case must match exactly; the checksummed form of this address is ${toChecksumAddress(address)}; check it against the deployed contract before copying)`;
  }
  return null;
}
