import { z } from 'zod';

/**
 * The allowlist's slice of the environment (env.ts reads it with the others, in one pass). Only
 * the schema lives here, so reading the configuration does not load the Ethereum library: what
 * the settings become is allowlist-options.ts.
 */
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
