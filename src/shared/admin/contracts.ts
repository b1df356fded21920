import { z } from 'zod/mini';
import { messageReplySchema, type ApiErrorCode } from '../api-error.ts';
import { adminApiPaths } from '../paths.ts';
import { defineContract, type RouteContract } from '../route-contract.ts';
import type { OperatorRole } from './roles.ts';
import { audienceQuerySchema, audienceReportSchema, liveVisitorsSchema } from './audience.ts';
import {
  allowlistOverviewSchema,
  allowlistQuerySchema,
  freezeBodySchema,
  freezeReplySchema,
  removeEntrySchema,
} from './allowlist.ts';
import { auditPageSchema, auditQuerySchema } from './audit-schema.ts';
import {
  broadcastApprovalSchema,
  broadcastDraftSchema,
  broadcastIdParamsSchema,
  broadcastListSchema,
  broadcastLocaleQuerySchema,
  broadcastPreviewSchema,
  broadcastTestSchema,
  broadcastSchema,
  testSentSchema,
} from './broadcast-schema.ts';
import {
  addPasskeySchema,
  authenticationOptionsSchema,
  passkeyReplySchema,
  passkeysReplySchema,
  registrationOptionsSchema,
  renamePasskeySchema,
} from './passkey-schema.ts';
import { endedReplySchema, endSessionSchema, sessionsReplySchema } from './sessions-schema.ts';
import {
  emptyBodySchema,
  freshProofReplySchema,
  freshProofSchema,
  operatorSessionSchema,
  passkeyFreshProofSchema,
  secondFactorSchema,
  signInReplySchema,
  signInSchema,
} from './sign-in-schema.ts';
import {
  eraseSubscriberSchema,
  subscriberActionReplySchema,
  subscriberDataExportSchema,
  subscriberDetailSchema,
  subscriberIdParamsSchema,
  subscriberListQuerySchema,
  subscriberListReplySchema,
  subscribersCsvRequestSchema,
} from './subscribers.ts';
import {
  referralsQuerySchema,
  referralsReportSchema,
  referrerDetailSchema,
  referrerIdParamsSchema,
  referrersCsvRequestSchema,
} from './referrals.ts';
import { suppressionIdParamsSchema, suppressionListQuerySchema, suppressionListSchema } from './suppressions.ts';

// Every endpoint of the operators' console, one contract each (src/shared/route-contract.ts): the
// server registers them (src/server/features/*/…-routes.ts), the console calls them (callContract for
// JSON, postForFile in client/admin/console/download.ts for the CSV downloads, whose 2xx is a file).
//
// Each names the least role that may call it (decision 0028), and `freshProof: true` where the
// operator must also have entered a code or used a passkey in the last five minutes (sending,
// approving, exporting, erasing). This is the one place a route's guard is written: the console's
// server guards every route from its contract (src/server/features/console/console-plugin.ts) and
// refuses to start when a route sets a guard of its own, and the role sweep
// (console/role-sweep.test.ts) holds every /api/admin route's answers to it.

/** 'public': answers without a session (the sign-in steps). */
export type LeastRole = OperatorRole | 'public';

/** A console endpoint's contract: a route contract with its guard. */
export type ConsoleContract = RouteContract & {
  role: LeastRole;
  /** The operator must have proved themselves again in the last five minutes (403 `fresh_proof_required`). */
  freshProof?: true;
};

const consoleContract = <const C extends ConsoleContract>(contract: C): C => defineContract(contract);

// What a signed-in route may answer besides its own codes; writes add `csrf`, fresh proof `fresh_proof_required`.
const read = ['bad_request', 'unauthorized', 'forbidden'] as const satisfies readonly ApiErrorCode[];
const write = [...read, 'csrf', 'invalid_fields'] as const satisfies readonly ApiErrorCode[];
const proven = [...write, 'fresh_proof_required'] as const satisfies readonly ApiErrorCode[];
const signInStep = [
  'bad_request',
  'invalid_fields',
  'unauthorized',
  'csrf',
  'rate_limited',
] as const satisfies readonly ApiErrorCode[];

const passkeyIdParams = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const signInContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.signIn,
  role: 'public',
  body: signInSchema,
  reply: signInReplySchema,
  errors: signInStep,
});
export const secondFactorContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.secondFactor,
  role: 'public',
  body: secondFactorSchema,
  reply: operatorSessionSchema,
  errors: signInStep,
});
export const sessionContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.session,
  role: 'viewer',
  reply: operatorSessionSchema,
  errors: read,
});
export const signOutContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.signOut,
  role: 'viewer',
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: write,
});
export const freshProofContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.freshProof,
  role: 'viewer',
  body: freshProofSchema,
  reply: freshProofReplySchema,
  errors: [...write, 'rate_limited'],
});
export const freshProofPasskeyContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.freshProofPasskey,
  role: 'viewer',
  body: passkeyFreshProofSchema,
  reply: freshProofReplySchema,
  errors: [...write, 'rate_limited'],
});

export const passkeysContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.passkeys,
  // Passkeys: every operator manages their own (decision 0030).
  role: 'viewer',
  reply: passkeysReplySchema,
  errors: read,
});
export const passkeyRegistrationOptionsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.passkeyRegistrationOptions,
  role: 'viewer',
  freshProof: true,
  body: emptyBodySchema,
  reply: registrationOptionsSchema,
  errors: proven,
});
export const addPasskeyContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.passkeys,
  role: 'viewer',
  freshProof: true,
  body: addPasskeySchema,
  reply: passkeyReplySchema,
  errors: proven,
});
export const renamePasskeyContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.passkey,
  role: 'viewer',
  params: passkeyIdParams,
  body: renamePasskeySchema,
  reply: passkeyReplySchema,
  errors: [...write, 'not_found'],
});
export const removePasskeyContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.passkeyRemove,
  role: 'viewer',
  freshProof: true,
  params: passkeyIdParams,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven, 'not_found'],
});
export const signInPasskeyOptionsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.signInPasskeyOptions,
  role: 'public',
  body: emptyBodySchema,
  reply: authenticationOptionsSchema,
  errors: signInStep,
});
export const freshProofPasskeyOptionsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.freshProofPasskeyOptions,
  role: 'viewer',
  body: emptyBodySchema,
  reply: authenticationOptionsSchema,
  errors: write,
});

export const sessionsContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.sessions,
  role: 'viewer',
  reply: sessionsReplySchema,
  errors: read,
});
export const endSessionContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.endSession,
  role: 'viewer',
  body: endSessionSchema,
  reply: endedReplySchema,
  errors: write,
});
export const endAllSessionsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.endAllSessions,
  role: 'viewer',
  freshProof: true,
  body: emptyBodySchema,
  reply: endedReplySchema,
  errors: proven,
});

export const auditContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.audit,
  role: 'sender',
  query: auditQuerySchema,
  reply: auditPageSchema,
  errors: [...read, 'invalid_fields'],
});

export const audienceContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.audience,
  role: 'viewer',
  query: audienceQuerySchema,
  reply: audienceReportSchema,
  errors: [...read, 'invalid_fields'],
});
export const audienceLiveContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.audienceLive,
  role: 'viewer',
  reply: liveVisitorsSchema,
  errors: read,
});

export const broadcastsContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.broadcasts,
  role: 'viewer',
  reply: broadcastListSchema,
  errors: read,
});
export const createBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcasts,
  role: 'sender',
  body: broadcastDraftSchema,
  reply: broadcastSchema,
  errors: write,
});
export const broadcastContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.broadcast,
  role: 'viewer',
  params: broadcastIdParamsSchema,
  reply: broadcastSchema,
  errors: [...read, 'not_found'],
});
export const saveBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcast,
  role: 'sender',
  params: broadcastIdParamsSchema,
  body: broadcastDraftSchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const approveBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastApprove,
  // A second pair of eyes (decision 0028): approving needs fresh proof too; revoking only stops.
  role: 'sender',
  freshProof: true,
  params: broadcastIdParamsSchema,
  body: broadcastApprovalSchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const revokeBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastRevoke,
  role: 'sender',
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const broadcastPreviewContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.broadcastPreview,
  role: 'viewer',
  params: broadcastIdParamsSchema,
  query: broadcastLocaleQuerySchema,
  reply: broadcastPreviewSchema,
  errors: [...read, 'invalid_fields', 'not_found'],
});
export const testBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastTest,
  role: 'sender',
  params: broadcastIdParamsSchema,
  body: broadcastTestSchema,
  reply: testSentSchema,
  errors: [...write, 'not_found', 'conflict', 'unavailable'],
});
export const sendBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastSend,
  role: 'sender',
  freshProof: true,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const pauseBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastPause,
  // The emergency stop: anyone signed in.
  role: 'viewer',
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const resumeBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastResume,
  // Sending again is sending: a stolen session alone must not undo someone's emergency stop.
  role: 'sender',
  freshProof: true,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const cancelBroadcastContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.broadcastCancel,
  role: 'sender',
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});

export const subscribersContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.subscribers,
  role: 'sender',
  query: subscriberListQuerySchema,
  reply: subscriberListReplySchema,
  errors: [...read, 'invalid_fields'],
});
/** The (filtered) list as a CSV file; an export, so audited, a POST, and behind fresh proof. */
export const subscribersCsvContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.subscribersCsv,
  role: 'sender',
  freshProof: true,
  body: subscribersCsvRequestSchema,
  reply: { file: 'text/csv' },
  errors: [...proven, 'invalid_fields'],
});
export const subscriberDetailsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.subscriberDetails,
  role: 'sender',
  params: subscriberIdParamsSchema,
  reply: subscriberDetailSchema,
  errors: [...proven, 'not_found', 'rate_limited'],
});
export const subscriberResendContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.subscriberResend,
  role: 'sender',
  params: subscriberIdParamsSchema,
  reply: subscriberActionReplySchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const subscriberExportContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.subscriberExport,
  role: 'sender',
  freshProof: true,
  params: subscriberIdParamsSchema,
  reply: subscriberDataExportSchema,
  errors: [...proven, 'not_found'],
});
export const suppressionsContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.suppressions,
  // The suppression list (decision 0035): read by senders; lifting one is the owner's, with fresh proof.
  role: 'sender',
  query: suppressionListQuerySchema,
  reply: suppressionListSchema,
  errors: [...read, 'invalid_fields'],
});
/** The whole suppression list as a CSV file (no body: the list has no filter). */
export const suppressionsCsvContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.suppressionsCsv,
  // Its CSV (no address in it): a sender's, with fresh proof, audited.
  role: 'sender',
  freshProof: true,
  reply: { file: 'text/csv' },
  errors: proven,
});
export const liftSuppressionContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.suppressionLift,
  role: 'owner',
  freshProof: true,
  params: suppressionIdParamsSchema,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven, 'not_found'],
});
export const subscriberEraseContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.subscriberErase,
  role: 'sender',
  freshProof: true,
  params: subscriberIdParamsSchema,
  body: eraseSubscriberSchema,
  reply: subscriberActionReplySchema,
  errors: [...proven, 'not_found'],
});

/** The buttons that move a broadcast along (same shape each: its id in, the broadcast back). */
export type BroadcastChangeContract =
  | typeof pauseBroadcastContract
  | typeof resumeBroadcastContract
  | typeof cancelBroadcastContract
  | typeof revokeBroadcastContract;

// The presale allowlist (docs/decisions/0045-wallet-allowlist.md): wallet addresses are a sender's
// to read; exporting, freezing (asked by one, approved by another) and reopening need fresh proof.
export const allowlistContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.allowlist,
  role: 'sender',
  query: allowlistQuerySchema,
  reply: allowlistOverviewSchema,
  errors: [...read, 'invalid_fields'],
});
export const allowlistRemoveContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.allowlistRemove,
  role: 'sender',
  body: removeEntrySchema,
  reply: messageReplySchema,
  errors: [...write, 'not_found'],
});
export const allowlistFreezeContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.allowlistFreeze,
  role: 'sender',
  freshProof: true,
  body: freezeBodySchema,
  reply: freezeReplySchema,
  errors: [...proven, 'conflict'],
});
export const allowlistFreezeApproveContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.allowlistFreezeApprove,
  role: 'sender',
  freshProof: true,
  body: emptyBodySchema,
  reply: freezeReplySchema,
  errors: [...proven, 'conflict'],
});
export const allowlistCsvContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.allowlistCsv,
  role: 'sender',
  freshProof: true,
  reply: { file: 'text/csv' },
  errors: proven,
});
export const allowlistReopenContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.allowlistReopen,
  role: 'sender',
  freshProof: true,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven],
});

// Invite links (issue 33): the report is everyone's, but a viewer's reply holds counts only (the
// route decides by role); one referrer's address and their invites by day are a sender's, read on
// purpose and audited; the top referrers with addresses, to reward them, need fresh proof.
export const referralsContract = consoleContract({
  method: 'GET',
  path: adminApiPaths.referrals,
  role: 'viewer',
  query: referralsQuerySchema,
  reply: referralsReportSchema,
  errors: [...read, 'invalid_fields'],
});
export const referrerDetailsContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.referrerDetails,
  role: 'sender',
  params: referrerIdParamsSchema,
  reply: referrerDetailSchema,
  errors: [...proven, 'not_found'],
});
export const referrersCsvContract = consoleContract({
  method: 'POST',
  path: adminApiPaths.referrersCsv,
  role: 'sender',
  freshProof: true,
  body: referrersCsvRequestSchema,
  reply: { file: 'text/csv' },
  errors: proven,
});
