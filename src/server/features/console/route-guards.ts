import type { onRequestHookHandler, RouteOptions } from 'fastify';
import * as contracts from '../../../shared/admin/contracts.ts';
import type { ConsoleContract, LeastRole } from '../../../shared/admin/contracts.ts';
import { isRoleGuard, requireRole } from '../operators/index.ts';

// Every console endpoint's guard, read from its contract (src/shared/admin/contracts.ts): the one
// place a route's role and its need for fresh proof are written. The console plugin guards each
// route with it, and the role sweep checks every /api/admin route's answers against it.

/** Who may call a console route: its least role, and whether they must have proved themselves lately. */
export interface RouteGuard {
  role: LeastRole;
  freshProof: boolean;
}

const isConsoleContract = (value: unknown): value is ConsoleContract =>
  typeof value === 'object' && value !== null && 'role' in value && 'method' in value && 'path' in value;

/** `METHOD path` of a route (a HEAD route is its GET's). */
export const routeKey = (method: string, url: string): string => `${method === 'HEAD' ? 'GET' : method} ${url}`;

/** `METHOD path` → its guard, for every console contract. */
export const routeGuards: ReadonlyMap<string, RouteGuard> = new Map(
  Object.values(contracts)
    .filter(isConsoleContract)
    .map((c: ConsoleContract) => [routeKey(c.method, c.path), { role: c.role, freshProof: c.freshProof === true }]),
);

// The guards this file made from contracts: a HEAD route Fastify copies from its GET carries one.
const fromContracts = new WeakSet<onRequestHookHandler>();

/**
 * onRoute, for every route of the console's API: puts the guard its contract names first in its
 * onRequest hooks (or, for a 'public' contract, marks it config.adminPublic). A route with no
 * contract, or one that sets a role guard or adminPublic of its own, stops the server from
 * starting, naming the route: a route's guard is written once, in its contract.
 */
export function guardFromContract(route: RouteOptions): void {
  const key = routeKey(String(route.method), route.url);
  const guard = routeGuards.get(key);
  if (guard === undefined)
    throw new Error(`Console route ${key} has no contract: add one, with its role, in src/shared/admin/contracts.ts.`);
  const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
  if (hooks.some((hook) => fromContracts.has(hook as onRequestHookHandler))) return;
  if (hooks.some(isRoleGuard) || route.config?.adminPublic !== undefined)
    throw new Error(
      `Console route ${key} sets its own guard: remove it; its contract (src/shared/admin/contracts.ts) ` +
        `names its role (${guard.role}${guard.freshProof ? ', with fresh proof' : ''}) and the console plugin guards it.`,
    );
  if (guard.role === 'public') {
    route.config = { ...route.config, adminPublic: true };
    return;
  }
  const made = requireRole(guard.role, { freshProof: guard.freshProof });
  fromContracts.add(made);
  route.onRequest = [made, ...hooks];
}
