import { z } from 'zod/mini';

// Who may do what in the console (docs/decisions/0028-roles-and-four-eyes.md). Roles are ranked:
// each one can do everything the one below it can. The server decides, per route
// (src/server/features/operators/guards.ts); the console only hides what the server would refuse anyway.
//
// - viewer: the audience report and counts, broadcasts' progress, and the emergency pause; never a
//   subscriber's personal data.
// - sender: also subscribers, exports and erasure; writing, approving and sending broadcasts.
// - owner: also what only the operators' command line grants today, and everything to come that
//   is about the team rather than the list (settings, operators).
export const operatorRoles = ['viewer', 'sender', 'owner'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

export const operatorRoleSchema = z.enum(operatorRoles, {
  error: `A role is one of ${operatorRoles.join(', ')}.`,
});

/** Whether an operator with `role` may do what `needed` allows. */
export const roleAllows = (role: OperatorRole, needed: OperatorRole): boolean =>
  operatorRoles.indexOf(role) >= operatorRoles.indexOf(needed);
