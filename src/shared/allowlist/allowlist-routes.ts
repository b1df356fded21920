import { apiPaths } from '../paths.ts';
import type { ContractRoute } from '../route-contract.ts';
import type {
  allowlistChallengeContract,
  allowlistJoinContract,
  allowlistLeaveContract,
  allowlistLinkContract,
  allowlistStatusContract,
} from './allowlist-schema.ts';

// The allowlist's public contracts (allowlist-schema.ts) as the page's island calls them: method
// and path only, so the island carries no zod (decision 0045, site-build.test.ts), typed by the
// contracts, which hold each method and path to theirs.

export const allowlistRoutes: {
  status: ContractRoute<typeof allowlistStatusContract>;
  challenge: ContractRoute<typeof allowlistChallengeContract>;
  join: ContractRoute<typeof allowlistJoinContract>;
  leave: ContractRoute<typeof allowlistLeaveContract>;
  link: ContractRoute<typeof allowlistLinkContract>;
} = {
  status: { method: 'GET', path: apiPaths.allowlistStatus },
  challenge: { method: 'POST', path: apiPaths.allowlistChallenge },
  join: { method: 'POST', path: apiPaths.allowlistJoin },
  leave: { method: 'POST', path: apiPaths.allowlistLeave },
  link: { method: 'POST', path: apiPaths.allowlistLink },
};
