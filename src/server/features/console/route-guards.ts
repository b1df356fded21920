import * as contracts from '../../../shared/admin/contracts.ts';
import type { ConsoleContract, LeastRole } from '../../../shared/admin/contracts.ts';

// Every console endpoint's least role, read from its contract (src/shared/admin/contracts.ts):
// the one place a route's role is decided. The console plugin guards with it and the role sweep
// checks every /api/admin route against it.

const isConsoleContract = (value: unknown): value is ConsoleContract =>
  typeof value === 'object' && value !== null && 'role' in value && 'method' in value && 'path' in value;

/** `METHOD path` → the least role that may call it, for every console contract. */
export const leastRoles: ReadonlyMap<string, LeastRole> = new Map(
  Object.values(contracts)
    .filter(isConsoleContract)
    .map((c) => [`${c.method} ${c.path}`, c.role]),
);
