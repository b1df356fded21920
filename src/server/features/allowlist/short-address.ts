/**
 * A wallet as people are used to reading it: "0x1234…abcd", the first four and the last four hex
 * digits of its EIP-55 form, as wallets show it.
 */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;
