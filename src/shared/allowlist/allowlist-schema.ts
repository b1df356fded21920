import { z } from 'zod/mini';
import type { ApiErrorCode } from '../api-error.ts';
import { messageReplySchema } from '../api-error.ts';
import { apiPaths } from '../paths.ts';
import { signupSchema } from '../signup-schema.ts';
import { defineContract } from '../route-contract.ts';

// The presale allowlist's public routes (docs/decisions/0045-wallet-allowlist.md). The server
// registers them from these contracts; the page's island, which must stay within a few KB and so
// carries no zod, uses their types only (`AllowlistReply<…>`), as the beacon does with its own.

/**
 * Any-case 0x address. Exported apart from the schema for the server's proof fast path, which must
 * take exactly what the schema takes and leave the rest to the route (decision 0049).
 */
export const ethAddressPattern = /^0x[0-9a-fA-F]{40}$/;

/** Any-case 0x address; the server answers with its EIP-55 form. */
const ethAddressSchema = z
  .string()
  .check(z.regex(ethAddressPattern, 'must be an Ethereum address: 0x followed by 40 hexadecimal characters'));

export const allowlistPurposes = ['join', 'leave'] as const;
export type AllowlistPurpose = (typeof allowlistPurposes)[number];

const challengeBodySchema = z.object({
  address: ethAddressSchema,
  purpose: z.enum(allowlistPurposes),
});

/** The exact text the wallet is asked to sign (EIP-4361), written by the server. */
const challengeReplySchema = z.object({ message: z.string() });

const signedMessageSchema = z.object({
  message: z.string().check(z.minLength(1), z.maxLength(2000, 'must be at most 2000 characters')),
  // A 65-byte signature is 132 characters; a contract wallet's (EIP-1271 / EIP-6492) may be longer.
  signature: z
    .string()
    .check(z.regex(/^0x[0-9a-fA-F]*$/, 'must be a hex signature'), z.maxLength(8192, 'must be at most 8 KB')),
});

const allowlistStatusSchema = z.object({
  /** EIP-55. */
  address: z.string(),
  /** When it joined (ISO), or null when it is not on the list. */
  since: z.nullable(z.string()),
});

/**
 * A join's answer: the status, and a single-use token (30 minutes) that lets the one who just
 * signed ask, once, to be told by email; it stands for that signature (decision 0045).
 */
const allowlistJoinReplySchema = z.object({
  ...allowlistStatusSchema.shape,
  linkToken: z.string(),
});

/**
 * Linking the joined wallet to an email: the sign-up's own name and email checks (the same
 * validation and the same double opt-in), and the join's token as the wallet's proof.
 */
const allowlistLinkBodySchema = z.strictObject({
  linkToken: z.string().check(z.regex(/^[A-Za-z0-9_-]{20,100}$/, 'must be the token a join answered with')),
  name: signupSchema.shape.name,
  email: signupSchema.shape.email,
});

const addressParamsSchema = z.object({ address: ethAddressSchema });

const allowlistProofSchema = z.object({
  /** The snapshot's Merkle root (OpenZeppelin StandardMerkleTree over [address] leaves). */
  root: z.string(),
  proof: z.array(z.string()),
});

const publicWrite = [
  'bad_request',
  'invalid_fields',
  'csrf',
  'forbidden',
  'conflict',
  'rate_limited',
  'not_found',
] as const satisfies readonly ApiErrorCode[];

export const allowlistChallengeContract = defineContract({
  method: 'POST',
  path: apiPaths.allowlistChallenge,
  body: challengeBodySchema,
  reply: challengeReplySchema,
  errors: publicWrite,
});

export const allowlistJoinContract = defineContract({
  method: 'POST',
  path: apiPaths.allowlistJoin,
  body: signedMessageSchema,
  reply: allowlistJoinReplySchema,
  errors: publicWrite,
});

export const allowlistLinkContract = defineContract({
  method: 'POST',
  path: apiPaths.allowlistLink,
  body: allowlistLinkBodySchema,
  reply: messageReplySchema,
  errors: [...publicWrite, 'unavailable'],
});

export const allowlistLeaveContract = defineContract({
  method: 'POST',
  path: apiPaths.allowlistLeave,
  body: signedMessageSchema,
  reply: allowlistStatusSchema,
  errors: publicWrite,
});

export const allowlistStatusContract = defineContract({
  method: 'GET',
  path: apiPaths.allowlistStatus,
  params: addressParamsSchema,
  reply: allowlistStatusSchema,
  errors: ['bad_request', 'invalid_fields', 'not_found', 'rate_limited'],
});

export const allowlistProofContract = defineContract({
  method: 'GET',
  path: apiPaths.allowlistProof,
  params: addressParamsSchema,
  reply: allowlistProofSchema,
  errors: ['bad_request', 'invalid_fields', 'not_found'],
});

export type AllowlistStatus = z.output<typeof allowlistStatusSchema>;
export type ChallengeReply = z.output<typeof challengeReplySchema>;
export type ChallengeBody = z.input<typeof challengeBodySchema>;
export type SignedMessage = z.input<typeof signedMessageSchema>;
export type AllowlistJoinReply = z.output<typeof allowlistJoinReplySchema>;
export type AllowlistLinkBody = z.input<typeof allowlistLinkBodySchema>;
export type AllowlistProof = z.output<typeof allowlistProofSchema>;
