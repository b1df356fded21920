import { AbiConstructor, Address, Hex, PersonalMessage, Secp256k1, Signature } from 'ox';
import { SignatureErc6492 } from 'ox/erc6492';

// Who signed a personal_sign (EIP-191) message. An ordinary account: ox recovers the signer with
// secp256k1 (@noble/curves underneath) and compares it with the claimed address. A smart-contract
// wallet cannot be recovered: it says "valid" through its own code (EIP-1271), or, not yet
// deployed, through a wrapped signature (EIP-6492). Both are asked in one eth_call of the
// EIP-6492 universal validator (deployless: no contract of ours on chain), which needs an
// Ethereum node: ETH_RPC_URL.

export type SignatureVerdict =
  /** The claimed address signed this text. */
  | 'valid'
  /**
   * The claimed address's key made it, but with s in the upper half of the curve's order: the
   * "twin" of a valid signature, which anyone can compute from it. EIP-2 forbids it; wallets never
   * make it; OpenZeppelin's ECDSA refuses it.
   */
  | 'high-s'
  /** Readable, but made by another key (or, with no node to ask, possibly a contract wallet). */
  | 'other-signer'
  | 'unreadable'
  /** A contract wallet's signature, and no node to check it with. */
  | 'needs-node'
  /** The node did not answer. */
  | 'node-down';

/** Asks an Ethereum node whether `address` accepts `signature` over `hash` (EIP-1271 / EIP-6492). */
export type ContractSignatureCheck = (address: Address.Address, hash: Hex.Hex, signature: Hex.Hex) => Promise<boolean>;

const ECDSA_SIGNATURE_LENGTH = 2 + 65 * 2;

export async function checkSignature(opts: {
  text: string;
  signature: string;
  address: Address.Address;
  contractCheck: ContractSignatureCheck | null;
}): Promise<SignatureVerdict> {
  const { text, address, contractCheck } = opts;
  if (!Hex.validate(opts.signature)) return 'unreadable';
  const signature: Hex.Hex = opts.signature;
  const hash = PersonalMessage.getSignPayload(Hex.fromString(text));
  const plain = signature.length === ECDSA_SIGNATURE_LENGTH && !SignatureErc6492.validate(signature);
  if (plain) {
    try {
      const parsed = Signature.fromHex(signature);
      const signer = Secp256k1.recoverAddress({ payload: hash, signature: parsed });
      // Refused only once it recovers to the address: a contract wallet's 65 bytes by another key
      // go on to its own code below, which decides for itself (EIP-1271).
      if (Address.isEqual(signer, address))
        return new Secp256k1.noble.Signature(BigInt(parsed.r), BigInt(parsed.s)).hasHighS() ? 'high-s' : 'valid';
    } catch {
      // Not a point on the curve, or an s/v out of range: not an ordinary account's signature.
      if (!contractCheck) return 'unreadable';
    }
  }
  if (!contractCheck) return plain ? 'other-signer' : 'needs-node';
  try {
    return (await contractCheck(address, hash, signature)) ? 'valid' : 'other-signer';
  } catch {
    return 'node-down';
  }
}

/** How long the node may take before a contract wallet is told to try again. */
const NODE_TIMEOUT_MS = 5_000;

/**
 * The contract check through a JSON-RPC node: one eth_call, with no `to`, of the universal
 * validator's creation code and its arguments; its constructor returns 0x01 when the signature is
 * valid (for a deployed EIP-1271 wallet, or an undeployed one whose EIP-6492 wrapper deploys it
 * in the call), 0x00 when not. Nothing is sent on chain.
 */
export function nodeContractCheck(rpcUrl: string, fetchImpl: typeof fetch = fetch): ContractSignatureCheck {
  const validator = AbiConstructor.fromAbi(SignatureErc6492.universalSignatureValidatorAbi);
  return async (address, hash, signature) => {
    const data = AbiConstructor.encode(validator, {
      bytecode: SignatureErc6492.universalSignatureValidatorBytecode,
      args: [address, hash, signature],
    });
    const response = await fetchImpl(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ data }, 'latest'] }),
      signal: AbortSignal.timeout(NODE_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`node answered ${response.status}`);
    const body = (await response.json()) as { result?: unknown; error?: { code?: unknown; message?: unknown } };
    // The validator reverts on some signatures it cannot accept: an answer, not an outage.
    if (body.error && (body.error.code === 3 || /revert/i.test(String(body.error.message)))) return false;
    if (typeof body.result !== 'string') throw new Error('node answered without a result');
    return /^0x0*1$/.test(body.result);
  };
}
