import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { apiError, apiErrorSchema, messageReplySchema } from '../../shared/api-error.ts';
import {
  addPasskeySchema,
  authenticationOptionsSchema,
  passkeyReplySchema,
  passkeysReplySchema,
  registrationOptionsSchema,
  renamePasskeySchema,
} from '../../shared/admin/passkey-schema.ts';
import { emptyBodySchema } from '../../shared/admin/sign-in-schema.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { audit } from './audit.ts';
import { operatorOf, requireRole } from './guards.ts';
import {
  addPasskey,
  authenticationOptions,
  listPasskeys,
  noPasskeysHereMessage,
  registrationOptions,
  removePasskey,
  renamePasskey,
  type RelyingParty,
} from './passkeys.ts';
import { cookieOptions, findChallenge, PENDING_COOKIE, tokenHash } from './sessions.ts';

// The console's passkey endpoints (decision 0030): list, add (fresh proof: a stolen session must
// not add a passkey of its own), rename, remove (fresh proof), and the challenges for using one.
// Checking a passkey's answer at sign-in and as fresh proof is in sign-in-routes.ts, beside the
// codes, so all of it shares one back-off.

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
const idParams = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const notYours = 'There is no such passkey among yours (it may have been removed already).';
const noPasskeyYet = 'You have no passkey yet. Please use a code from your authenticator app.';

export function registerPasskeyRoutes(api: FastifyInstance, opts: { relyingParty: RelyingParty | null }): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;
  const { relyingParty: rp } = opts;

  app.get(
    adminApiPaths.passkeys,
    { onRequest: requireRole('viewer'), schema: { response: { 200: passkeysReplySchema, ...errors } } },
    async (request) => ({ passkeys: await listPasskeys(db(), operatorOf(request).id) }),
  );

  app.post(
    adminApiPaths.passkeyRegistrationOptions,
    { onRequest: requireRole('viewer', { freshProof: true }), schema: { body: emptyBodySchema, response: { 200: registrationOptionsSchema, ...errors } } },
    async (request, reply) => {
      if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
      const operator = operatorOf(request);
      return registrationOptions(db(), rp, { id: operator.id, email: operator.email, sessionId: operator.sessionId }, api.clock());
    },
  );

  app.post(
    adminApiPaths.passkeys,
    { onRequest: requireRole('viewer', { freshProof: true }), schema: { body: addPasskeySchema, response: { 200: passkeyReplySchema, ...errors } } },
    async (request, reply) => {
      if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
      const operator = operatorOf(request);
      const added = await addPasskey(db(), rp, { id: operator.id, sessionId: operator.sessionId }, request.body, api.clock());
      if (!added.ok) return reply.code(400).send(apiError('bad_request', added.refusal.message));
      await audit(request, { action: 'passkey.added', subject: operator.email, detail: `“${added.passkey.name}”` });
      return { passkey: added.passkey };
    },
  );

  app.post(
    adminApiPaths.passkey,
    { onRequest: requireRole('viewer'), schema: { params: idParams, body: renamePasskeySchema, response: { 200: passkeyReplySchema, ...errors } } },
    async (request, reply) => {
      const operator = operatorOf(request);
      const renamed = await renamePasskey(db(), operator.id, request.params.id, request.body.name);
      if (!renamed) return reply.code(404).send(apiError('not_found', notYours));
      await audit(request, { action: 'passkey.renamed', subject: operator.email, detail: `“${renamed.was}” → “${renamed.entry.name}”` });
      return { passkey: renamed.entry };
    },
  );

  app.post(
    adminApiPaths.passkeyRemove,
    { onRequest: requireRole('viewer', { freshProof: true }), schema: { params: idParams, body: emptyBodySchema, response: { 200: messageReplySchema, ...errors } } },
    async (request, reply) => {
      const operator = operatorOf(request);
      const name = await removePasskey(db(), operator.id, request.params.id);
      if (name === null) return reply.code(404).send(apiError('not_found', notYours));
      await audit(request, { action: 'passkey.removed', subject: operator.email, detail: `“${name}”` });
      return { message: `Removed the passkey “${name}”. It no longer signs you in.` };
    },
  );

  // After the password step: a challenge for the pending sign-in, limited to its operator's
  // passkeys. Answered at adminApiPaths.secondFactor with { method: 'passkey', response }.
  app.post(
    adminApiPaths.signInPasskeyOptions,
    { config: { adminPublic: true }, schema: { body: emptyBodySchema, response: { 200: authenticationOptionsSchema, ...errors } } },
    async (request, reply) => {
      const pending = request.cookies[PENDING_COOKIE];
      const challenge = pending ? await findChallenge(db(), pending, api.clock()) : null;
      if (!pending || !challenge) {
        reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
        return reply.code(401).send(apiError('unauthorized', 'Your sign-in has timed out. Please enter your email and password again.'));
      }
      if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
      const binding = { pendingHash: tokenHash(pending) };
      const options = await authenticationOptions(db(), rp, { operatorId: challenge.operatorId, purpose: 'sign-in', binding }, api.clock());
      return options ?? reply.code(404).send(apiError('not_found', noPasskeyYet));
    },
  );

  // Fresh proof with a passkey: answered at adminApiPaths.freshProofPasskey.
  app.post(
    adminApiPaths.freshProofPasskeyOptions,
    { onRequest: requireRole('viewer'), schema: { body: emptyBodySchema, response: { 200: authenticationOptionsSchema, ...errors } } },
    async (request, reply) => {
      if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
      const operator = operatorOf(request);
      const binding = { sessionId: operator.sessionId };
      const options = await authenticationOptions(db(), rp, { operatorId: operator.id, purpose: 'fresh-proof', binding }, api.clock());
      return options ?? reply.code(404).send(apiError('not_found', noPasskeyYet));
    },
  );
}
