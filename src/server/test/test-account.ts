import { Address, Hex, PersonalMessage, Secp256k1, Signature } from 'ox';

/**
 * A wallet account backed by a real secp256k1 key (ox), for the tests: it signs personal_sign
 * (EIP-191) messages exactly as a wallet does.
 */
export function testAccount(privateKey: Hex.Hex = Secp256k1.randomPrivateKey()) {
  const address = Address.checksum(Address.fromPublicKey(Secp256k1.getPublicKey({ privateKey })));
  return {
    address,
    privateKey,
    sign: (text: string): Hex.Hex =>
      Signature.toHex(Secp256k1.sign({ payload: PersonalMessage.getSignPayload(Hex.fromString(text)), privateKey })),
  };
}

export type TestAccount = ReturnType<typeof testAccount>;
