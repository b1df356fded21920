import type { FastifyInstance } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { codeFailedMessage, sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import { freshProofContract, freshProofPasskeyContract } from '../../../shared/admin/contracts.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { audit } from '../audit/index.ts';
import { operatorOf } from './guards.ts';
import { claimTotpStep, findOperator } from './operators.ts';
import { verifyPasskeyUse, type RelyingParty } from './passkeys.ts';
import { setFreshProof } from './sessions.ts';
import { type SignInGate, unreadableSecretMessage } from './sign-in-gate.ts';
import { totpStep } from './totp.ts';

/**
 * Fresh proof in a signed-in session (an authenticator code, or a passkey), for the routes that
 * ask for it (their contract's `freshProof`, guards.ts). The same back-off as sign-in stands in front
 * of it (`gate`, sign-in-gate.ts), so a stolen session cannot guess codes here that sign-in would
 * stop.
 */
export function registerFreshProofRoutes(
  api: FastifyInstance,
  opts: { relyingParty: RelyingParty | null; gate: SignInGate },
): void {
  const { gate } = opts;
  const db = () => api.store.db;

  registerContract(api, freshProofContract, async (request, reply) => {
    const operator = operatorOf(request);
    const found = await findOperator(db(), operator.email);
    const secret = found ? gate.openSecret(request, found.id, found.sealedTotpSecret) : undefined;
    if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
    // Both limits taken before the code is read, each in one atomic step (sign-in-gate.ts): the
    // back-off's try, and the operator's code try, since a stolen session could otherwise guess
    // codes here from network after network.
    const taken = await gate.takeTry(request, reply, operator.email);
    if (!taken) return reply;
    const codeTry = await gate.takeCodeTry(request, reply, operator, 'fresh-proof', taken);
    if (codeTry === null) return reply;
    const now = api.clock();
    const step = secret ? totpStep(secret, request.body.code, now) : null;
    if (step === null || !(await claimTotpStep(db(), operator.id, step))) {
      await gate.wrong(request, taken);
      await gate.wrongCode(request, operator, codeTry);
      await audit(request, {
        action: 'fresh-proof.failed',
        subject: operator.email,
        detail: 'wrong or reused authenticator code',
      });
      return reply.code(400).send(apiError('invalid_fields', codeFailedMessage, { code: codeFailedMessage }));
    }
    await gate.right(request, taken);
    await gate.giveCodeBack(operator);
    await setFreshProof(db(), operator.sessionId, now);
    await audit(request, { action: 'fresh-proof.given', subject: operator.email });
    return { freshProofUntil: new Date(now.getTime() + sessionTimes.freshProofMs).toISOString() };
  });

  registerContract(api, freshProofPasskeyContract, async (request, reply) => {
    const operator = operatorOf(request);
    const taken = await gate.takeTry(request, reply, operator.email);
    if (!taken) return reply;
    const now = api.clock();
    const binding = { sessionId: operator.sessionId };
    const used = await verifyPasskeyUse(
      db(),
      opts.relyingParty,
      { operatorId: operator.id, purpose: 'fresh-proof', binding, response: request.body.response },
      now,
    );
    if (!used.ok) {
      // A refused passkey backs off like a wrong code.
      await gate.wrong(request, taken);
      await audit(request, { action: 'fresh-proof.failed', subject: operator.email, detail: used.refusal.detail });
      return reply.code(400).send(apiError('bad_request', used.refusal.message));
    }
    await gate.right(request, taken);
    await setFreshProof(db(), operator.sessionId, now);
    await audit(request, {
      action: 'fresh-proof.given',
      subject: operator.email,
      detail: `with the passkey “${used.name}”`,
    });
    await audit(request, { action: 'passkey.used', subject: operator.email, detail: `“${used.name}”, as fresh proof` });
    return { freshProofUntil: new Date(now.getTime() + sessionTimes.freshProofMs).toISOString() };
  });
}
