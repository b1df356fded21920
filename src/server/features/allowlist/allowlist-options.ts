import type { z } from 'zod';
import type { allowlistEnv } from './allowlist-config.ts';
import { nodeContractCheck, type ContractSignatureCheck } from './signature-check.ts';
import { siweSite, type SiweSite } from './siwe-message.ts';

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
