import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { sessionTimes, signInFailedMessage, type OperatorSession } from '../../../shared/admin/sign-in-schema.ts';
import { audit } from '../audit/index.ts';
import { registerFreshProofRoutes } from './fresh-proof-routes.ts';
import { freshProofUntil, operatorOf } from './guards.ts';
import { findOperator, recoveryCodesLeft, replacePasswordHash } from './operators.ts';
import type { RelyingParty } from './passkeys.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { answerSecondFactor } from './second-factor.ts';
import type { SignInCounters } from './sign-in-backoff.ts';
import { signInGate } from './sign-in-gate.ts';
import { cookieOptions, createChallenge, endSessionByToken, PENDING_COOKIE, SESSION_COOKIE } from './sessions.ts';
import {
  secondFactorContract,
  sessionContract,
  signInContract,
  signOutContract,
} from '../../../shared/admin/contracts.ts';
import { registerContract } from '../../lib/register-contract.ts';

/**
 * Session cookies are Secure (`__Host-`), which a browser keeps only from a secure origin: HTTPS,
 * or this machine (Chromium and Firefox treat http://localhost and 127.0.0.1 as secure). Anywhere
 * else a sign-in over plain http would "succeed" and then forget itself, so it is refused in words.
 */
function secureEnough(request: FastifyRequest, publicUrl: string): boolean {
  if (request.protocol === 'https' || publicUrl.startsWith('https://')) return true;
  const host = request.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const httpsMessage =
  'The console signs in only over HTTPS (or at http://localhost on the server itself). Please use its https:// address.';

/**
 * The password, then a second factor (an authenticator code, a passkey or a recovery code), the
 * session they open, and signing out. The second factor's steps are second-factor.ts, fresh proof
 * in a session fresh-proof-routes.ts, and the back-off every answer passes sign-in-gate.ts.
 */
export function registerSignInRoutes(
  api: FastifyInstance,
  /** `relyingParty`: where passkeys are bound (passkeys.ts); null when PUBLIC_URL is an IP address. */
  opts: { publicUrl: string; counters: SignInCounters; relyingParty: RelyingParty | null },
): void {
  const { counters } = opts;
  const db = () => api.store.db;
  const gate = signInGate(api, counters, opts.publicUrl);

  registerContract(api, signInContract, async (request, reply) => {
    if (!secureEnough(request, opts.publicUrl)) return reply.code(400).send(apiError('bad_request', httpsMessage));
    const { email, password } = request.body;
    // A try taken from the back-off before the hash is checked (given back if the password is right).
    const taken = await gate.takeTry(request, reply, email);
    if (!taken) return reply;
    const operator = await findOperator(db(), email);
    // An unknown address is checked against a dummy hash: the same work, the same time.
    const matches = await verifyPassword(operator?.passwordHash ?? (await dummyHash()), password);
    if (!operator || !matches) {
      await gate.wrong(request, taken);
      // Only an operator's own address is written down: anything else typed there (a personal
      // address, a password in the wrong box) is not ours to keep.
      await audit(request, {
        action: 'sign-in.failed',
        subject: operator?.email ?? null,
        detail: operator ? 'wrong password' : 'unknown address',
      });
      return reply.code(401).send(apiError('unauthorized', signInFailedMessage));
    }
    // A right password gives its tries back; only a full sign-in clears the count of failures for
    // this address from this network.
    await gate.giveBack(taken);
    if (needsRehash(operator.passwordHash)) await replacePasswordHash(db(), operator.id, await hashPassword(password));
    const challenge = await createChallenge(db(), operator.id, api.clock());
    reply.setCookie(PENDING_COOKIE, challenge, cookieOptions(sessionTimes.pendingMs));
    return { next: 'second-factor' as const };
  });

  const secondFactor = { api, gate, relyingParty: opts.relyingParty };
  registerContract(api, secondFactorContract, (request, reply) => answerSecondFactor(secondFactor, request, reply));

  registerContract(api, sessionContract, async (request) => {
    const operator = operatorOf(request);
    const until = freshProofUntil(operator.freshProofAt);
    return {
      operator: { email: operator.email, role: operator.role },
      freshProofUntil: until && until.getTime() > api.clock().getTime() ? until.toISOString() : null,
      recoveryCodesLeft: await recoveryCodesLeft(db(), operator.id),
    } satisfies OperatorSession;
  });

  registerContract(api, signOutContract, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSessionByToken(db(), token);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    await audit(request, { action: 'sign-out' });
    return { message: 'You are signed out.' };
  });

  registerFreshProofRoutes(api, { relyingParty: opts.relyingParty, gate });
}
