import type { FastifyInstance } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { audit } from '../audit/index.ts';
import { operatorOf, pendingSignIn } from './guards.ts';
import { noPasskeysHereMessage } from './passkey-refusals.ts';
import { addPasskey, registrationOptions } from './passkey-registration.ts';
import { listPasskeys, removePasskey, renamePasskey } from './passkey-store.ts';
import { authenticationOptions, type RelyingParty } from './passkeys.ts';
import { tokenHash } from './sessions.ts';
import {
  addPasskeyContract,
  freshProofPasskeyOptionsContract,
  passkeyRegistrationOptionsContract,
  passkeysContract,
  removePasskeyContract,
  renamePasskeyContract,
  signInPasskeyOptionsContract,
} from '../../../shared/admin/contracts.ts';
import { notFound } from '../../lib/not-found.ts';
import { registerContract } from '../../lib/register-contract.ts';

// The console's passkey endpoints (decision 0030): list, add (fresh proof: a stolen session must
// not add a passkey of its own), rename, remove (fresh proof), and the challenges for using one.
// Checking a passkey's answer at sign-in and as fresh proof is in sign-in-routes.ts and
// fresh-proof-routes.ts, beside the codes, so all of it shares one back-off (sign-in-gate.ts).

const notYours = 'There is no such passkey among yours (it may have been removed already).';
const noPasskeyYet = 'You have no passkey yet. Please use a code from your authenticator app.';

export function registerPasskeyRoutes(api: FastifyInstance, opts: { relyingParty: RelyingParty | null }): void {
  const db = () => api.store.db;
  const { relyingParty: rp } = opts;

  registerContract(api, passkeysContract, async (request) => ({
    passkeys: await listPasskeys(db(), operatorOf(request).id),
  }));

  registerContract(api, passkeyRegistrationOptionsContract, async (request, reply) => {
    if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
    const operator = operatorOf(request);
    return registrationOptions(
      db(),
      rp,
      { id: operator.id, email: operator.email, sessionId: operator.sessionId },
      api.clock(),
    );
  });

  registerContract(api, addPasskeyContract, async (request, reply) => {
    if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
    const operator = operatorOf(request);
    const added = await addPasskey(
      db(),
      rp,
      { id: operator.id, sessionId: operator.sessionId },
      request.body,
      api.clock(),
    );
    if (!added.ok) return reply.code(400).send(apiError('bad_request', added.refusal.message));
    await audit(request, { action: 'passkey.added', subject: operator.email, detail: `“${added.passkey.name}”` });
    return { passkey: added.passkey };
  });

  registerContract(api, renamePasskeyContract, async (request, reply) => {
    const operator = operatorOf(request);
    const renamed = await renamePasskey(db(), operator.id, request.params.id, request.body.name);
    if (!renamed) return notFound(reply, notYours);
    await audit(request, {
      action: 'passkey.renamed',
      subject: operator.email,
      detail: `“${renamed.was}” → “${renamed.entry.name}”`,
    });
    return { passkey: renamed.entry };
  });

  registerContract(api, removePasskeyContract, async (request, reply) => {
    const operator = operatorOf(request);
    const name = await removePasskey(db(), operator.id, request.params.id);
    if (name === null) return notFound(reply, notYours);
    await audit(request, { action: 'passkey.removed', subject: operator.email, detail: `“${name}”` });
    return { message: `Removed the passkey “${name}”. It no longer signs you in.` };
  });

  // After the password step: a challenge for the pending sign-in, limited to its operator's
  // passkeys. Answered at adminApiPaths.secondFactor with { method: 'passkey', response }.
  registerContract(api, signInPasskeyOptionsContract, async (request, reply) => {
    const signingIn = await pendingSignIn(request, reply);
    if (!signingIn) return reply;
    const { token: pending, challenge } = signingIn;
    if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
    const binding = { pendingHash: tokenHash(pending) };
    const options = await authenticationOptions(
      db(),
      rp,
      { operatorId: challenge.operatorId, purpose: 'sign-in', binding },
      api.clock(),
    );
    return options ?? notFound(reply, noPasskeyYet);
  });

  // Fresh proof with a passkey: answered at adminApiPaths.freshProofPasskey.
  registerContract(api, freshProofPasskeyOptionsContract, async (request, reply) => {
    if (!rp) return reply.code(400).send(apiError('bad_request', noPasskeysHereMessage));
    const operator = operatorOf(request);
    const binding = { sessionId: operator.sessionId };
    const options = await authenticationOptions(
      db(),
      rp,
      { operatorId: operator.id, purpose: 'fresh-proof', binding },
      api.clock(),
    );
    return options ?? notFound(reply, noPasskeyYet);
  });
}
