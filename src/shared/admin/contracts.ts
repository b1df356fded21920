import { z } from 'zod/mini';
import { messageReplySchema, type ApiErrorCode } from '../api-error.ts';
import { adminApiPaths } from '../paths.ts';
import { defineContract } from '../route-contract.ts';
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
import { suppressionIdParamsSchema, suppressionListQuerySchema, suppressionListSchema } from './suppressions.ts';

// Every endpoint of the operators' console, one contract each (src/shared/route-contract.ts): the
// server registers them (src/server/features/*/…-routes.ts), the console calls them (callContract for
// JSON, postForFile in client/admin/download.ts for the CSV downloads, whose 2xx is a file).

// What a route behind requireRole may answer besides its own codes; writes add `csrf`.
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

export const signInContract = defineContract({
  method: 'POST',
  path: adminApiPaths.signIn,
  body: signInSchema,
  reply: signInReplySchema,
  errors: signInStep,
});
export const secondFactorContract = defineContract({
  method: 'POST',
  path: adminApiPaths.secondFactor,
  body: secondFactorSchema,
  reply: operatorSessionSchema,
  errors: signInStep,
});
export const sessionContract = defineContract({
  method: 'GET',
  path: adminApiPaths.session,
  reply: operatorSessionSchema,
  errors: read,
});
export const signOutContract = defineContract({
  method: 'POST',
  path: adminApiPaths.signOut,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: write,
});
export const freshProofContract = defineContract({
  method: 'POST',
  path: adminApiPaths.freshProof,
  body: freshProofSchema,
  reply: freshProofReplySchema,
  errors: [...write, 'rate_limited'],
});
export const freshProofPasskeyContract = defineContract({
  method: 'POST',
  path: adminApiPaths.freshProofPasskey,
  body: passkeyFreshProofSchema,
  reply: freshProofReplySchema,
  errors: [...write, 'rate_limited'],
});

export const passkeysContract = defineContract({
  method: 'GET',
  path: adminApiPaths.passkeys,
  reply: passkeysReplySchema,
  errors: read,
});
export const passkeyRegistrationOptionsContract = defineContract({
  method: 'POST',
  path: adminApiPaths.passkeyRegistrationOptions,
  body: emptyBodySchema,
  reply: registrationOptionsSchema,
  errors: proven,
});
export const addPasskeyContract = defineContract({
  method: 'POST',
  path: adminApiPaths.passkeys,
  body: addPasskeySchema,
  reply: passkeyReplySchema,
  errors: proven,
});
export const renamePasskeyContract = defineContract({
  method: 'POST',
  path: adminApiPaths.passkey,
  params: passkeyIdParams,
  body: renamePasskeySchema,
  reply: passkeyReplySchema,
  errors: [...write, 'not_found'],
});
export const removePasskeyContract = defineContract({
  method: 'POST',
  path: adminApiPaths.passkeyRemove,
  params: passkeyIdParams,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven, 'not_found'],
});
export const signInPasskeyOptionsContract = defineContract({
  method: 'POST',
  path: adminApiPaths.signInPasskeyOptions,
  body: emptyBodySchema,
  reply: authenticationOptionsSchema,
  errors: signInStep,
});
export const freshProofPasskeyOptionsContract = defineContract({
  method: 'POST',
  path: adminApiPaths.freshProofPasskeyOptions,
  body: emptyBodySchema,
  reply: authenticationOptionsSchema,
  errors: write,
});

export const sessionsContract = defineContract({
  method: 'GET',
  path: adminApiPaths.sessions,
  reply: sessionsReplySchema,
  errors: read,
});
export const endSessionContract = defineContract({
  method: 'POST',
  path: adminApiPaths.endSession,
  body: endSessionSchema,
  reply: endedReplySchema,
  errors: write,
});
export const endAllSessionsContract = defineContract({
  method: 'POST',
  path: adminApiPaths.endAllSessions,
  body: emptyBodySchema,
  reply: endedReplySchema,
  errors: proven,
});

export const auditContract = defineContract({
  method: 'GET',
  path: adminApiPaths.audit,
  query: auditQuerySchema,
  reply: auditPageSchema,
  errors: [...read, 'invalid_fields'],
});

export const audienceContract = defineContract({
  method: 'GET',
  path: adminApiPaths.audience,
  query: audienceQuerySchema,
  reply: audienceReportSchema,
  errors: [...read, 'invalid_fields'],
});
export const audienceLiveContract = defineContract({
  method: 'GET',
  path: adminApiPaths.audienceLive,
  reply: liveVisitorsSchema,
  errors: read,
});

export const broadcastsContract = defineContract({
  method: 'GET',
  path: adminApiPaths.broadcasts,
  reply: broadcastListSchema,
  errors: read,
});
export const createBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcasts,
  body: broadcastDraftSchema,
  reply: broadcastSchema,
  errors: write,
});
export const broadcastContract = defineContract({
  method: 'GET',
  path: adminApiPaths.broadcast,
  params: broadcastIdParamsSchema,
  reply: broadcastSchema,
  errors: [...read, 'not_found'],
});
export const saveBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcast,
  params: broadcastIdParamsSchema,
  body: broadcastDraftSchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const approveBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastApprove,
  params: broadcastIdParamsSchema,
  body: broadcastApprovalSchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const revokeBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastRevoke,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const broadcastPreviewContract = defineContract({
  method: 'GET',
  path: adminApiPaths.broadcastPreview,
  params: broadcastIdParamsSchema,
  query: broadcastLocaleQuerySchema,
  reply: broadcastPreviewSchema,
  errors: [...read, 'invalid_fields', 'not_found'],
});
export const testBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastTest,
  params: broadcastIdParamsSchema,
  body: broadcastTestSchema,
  reply: testSentSchema,
  errors: [...write, 'not_found', 'conflict', 'unavailable'],
});
export const sendBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastSend,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const pauseBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastPause,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const resumeBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastResume,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...proven, 'not_found', 'conflict'],
});
export const cancelBroadcastContract = defineContract({
  method: 'POST',
  path: adminApiPaths.broadcastCancel,
  params: broadcastIdParamsSchema,
  body: emptyBodySchema,
  reply: broadcastSchema,
  errors: [...write, 'not_found', 'conflict'],
});

export const subscribersContract = defineContract({
  method: 'GET',
  path: adminApiPaths.subscribers,
  query: subscriberListQuerySchema,
  reply: subscriberListReplySchema,
  errors: [...read, 'invalid_fields'],
});
/** The (filtered) list as a CSV file; an export, so audited, a POST, and behind fresh proof. */
export const subscribersCsvContract = defineContract({
  method: 'POST',
  path: adminApiPaths.subscribersCsv,
  body: subscribersCsvRequestSchema,
  reply: { file: 'text/csv' },
  errors: [...proven, 'invalid_fields'],
});
export const subscriberDetailsContract = defineContract({
  method: 'POST',
  path: adminApiPaths.subscriberDetails,
  params: subscriberIdParamsSchema,
  reply: subscriberDetailSchema,
  errors: [...proven, 'not_found', 'rate_limited'],
});
export const subscriberResendContract = defineContract({
  method: 'POST',
  path: adminApiPaths.subscriberResend,
  params: subscriberIdParamsSchema,
  reply: subscriberActionReplySchema,
  errors: [...write, 'not_found', 'conflict'],
});
export const subscriberExportContract = defineContract({
  method: 'POST',
  path: adminApiPaths.subscriberExport,
  params: subscriberIdParamsSchema,
  reply: subscriberDataExportSchema,
  errors: [...proven, 'not_found'],
});
export const suppressionsContract = defineContract({
  method: 'GET',
  path: adminApiPaths.suppressions,
  query: suppressionListQuerySchema,
  reply: suppressionListSchema,
  errors: [...read, 'invalid_fields'],
});
/** The whole suppression list as a CSV file (no body: the list has no filter). */
export const suppressionsCsvContract = defineContract({
  method: 'POST',
  path: adminApiPaths.suppressionsCsv,
  reply: { file: 'text/csv' },
  errors: proven,
});
export const liftSuppressionContract = defineContract({
  method: 'POST',
  path: adminApiPaths.suppressionLift,
  params: suppressionIdParamsSchema,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven, 'not_found'],
});
export const subscriberEraseContract = defineContract({
  method: 'POST',
  path: adminApiPaths.subscriberErase,
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

// The presale allowlist (docs/decisions/0045-wallet-allowlist.md).
export const allowlistContract = defineContract({
  method: 'GET',
  path: adminApiPaths.allowlist,
  query: allowlistQuerySchema,
  reply: allowlistOverviewSchema,
  errors: [...read, 'invalid_fields'],
});
export const allowlistRemoveContract = defineContract({
  method: 'POST',
  path: adminApiPaths.allowlistRemove,
  body: removeEntrySchema,
  reply: messageReplySchema,
  errors: [...write, 'not_found'],
});
export const allowlistFreezeContract = defineContract({
  method: 'POST',
  path: adminApiPaths.allowlistFreeze,
  body: freezeBodySchema,
  reply: freezeReplySchema,
  errors: [...proven, 'conflict'],
});
export const allowlistFreezeApproveContract = defineContract({
  method: 'POST',
  path: adminApiPaths.allowlistFreezeApprove,
  body: emptyBodySchema,
  reply: freezeReplySchema,
  errors: [...proven, 'conflict'],
});
export const allowlistCsvContract = defineContract({
  method: 'POST',
  path: adminApiPaths.allowlistCsv,
  reply: { file: 'text/csv' },
  errors: proven,
});
export const allowlistReopenContract = defineContract({
  method: 'POST',
  path: adminApiPaths.allowlistReopen,
  body: emptyBodySchema,
  reply: messageReplySchema,
  errors: [...proven],
});
