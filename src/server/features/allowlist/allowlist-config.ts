import { z } from 'zod';
import { nodeContractCheck, type ContractSignatureCheck } from './signature-check.ts';
import { siweSite, type SiweSite } from './siwe-message.ts';

/** The allowlist's slice of the environment (env.ts reads it with the others, in one pass). */
export const allowlistEnv = z.object({
  // The presale allowlist (docs/decisions/0045-wallet-allowlist.md): messages asked for, joins
  // and leaves per minute per client network (each a separate count).
  ALLOWLIST_RATE_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(20),
  // An Ethereum node's JSON-RPC address: with it, smart-contract wallets (EIP-1271, EIP-6492) can
  // join the allowlist; without it they are told, in words, that they cannot yet.
  ETH_RPC_URL: z
    .string()
    .trim()
    .url('must be a full URL such as https://ethereum-rpc.example')
    .refine((u) => /^https?:\/\//.test(u), 'must start with https:// (or http:// for a node of your own)')
    .optional(),
});

/**
 * The allowlist's options from its settings: the site its Sign-In with Ethereum messages name
 * (PUBLIC_URL's host, the content file's chain), its rate, and the contract-wallet check when
 * there is a node to ask.
 */
export function allowlistOptionsOf(
  env: z.infer<typeof allowlistEnv> & { PUBLIC_URL: string },
  chainId: number,
): { site: SiweSite; ratePerMinute: number; contractCheck: ContractSignatureCheck | null } {
  return {
    site: siweSite(env.PUBLIC_URL, chainId),
    ratePerMinute: env.ALLOWLIST_RATE_LIMIT,
    contractCheck: env.ETH_RPC_URL ? nodeContractCheck(env.ETH_RPC_URL) : null,
  };
}
