import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import {
  codeFailedMessage,
  secondFactorSpentMessage,
  sessionTimes,
  signInFailedMessage,
  type OperatorSession,
} from '../../../shared/admin/sign-in-schema.ts';
import { audit } from '../audit/index.ts';
import { codesHeldUntil } from './code-tries.ts';
import { registerFreshProofRoutes } from './fresh-proof-routes.ts';
import { freshProofUntil, operatorOf, pendingSignIn, requireRole } from './guards.ts';
import { claimRecoveryCode, claimTotpStep, findOperator, recoveryCodesLeft, replacePasswordHash } from './operators.ts';
import { verifyPasskeyUse, type PasskeyUse, type RelyingParty } from './passkeys.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { SignInCounters } from './sign-in-backoff.ts';
import { signInGate, unreadableSecretMessage, type Who } from './sign-in-gate.ts';
import {
  claimChallengeTry,
  cookieOptions,
  createChallenge,
  createSession,
  endChallenge,
  endSessionByToken,
  PENDING_COOKIE,
  SECOND_FACTOR_TRIES,
  SESSION_COOKIE,
  tokenHash,
} from './sessions.ts';
import { totpStep } from './totp.ts';
import { browserSummary } from './user-agent.ts';
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
 * session they open, and signing out. Fresh proof in a session is fresh-proof-routes.ts; the
 * back-off every answer passes is sign-in-gate.ts.
 */
export function registerSignInRoutes(
  api: FastifyInstance,
  /** `relyingParty`: where passkeys are bound (passkeys.ts); null when PUBLIC_URL is an IP address. */
  opts: { publicUrl: string; counters: SignInCounters; relyingParty: RelyingParty | null },
): void {
  const { counters } = opts;
  const db = () => api.store.db;
  const gate = signInGate(api, counters, opts.publicUrl);

  /** A spent pending sign-in: the cookie goes, and the password step again. */
  async function spent(reply: FastifyReply): Promise<FastifyReply> {
    reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
    return reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', secondFactorSpentMessage));
  }

  registerContract(api, signInContract, { config: { adminPublic: true } }, async (request, reply) => {
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
    // A right password gives its tries back; only a full sign-in clears the pair's count.
    await gate.giveBack(taken);
    if (needsRehash(operator.passwordHash)) await replacePasswordHash(db(), operator.id, await hashPassword(password));
    const challenge = await createChallenge(db(), operator.id, api.clock());
    reply.setCookie(PENDING_COOKIE, challenge, cookieOptions(sessionTimes.pendingMs));
    return { next: 'second-factor' as const };
  });

  registerContract(api, secondFactorContract, { config: { adminPublic: true } }, async (request, reply) => {
    const signingIn = await pendingSignIn(request, reply);
    if (!signingIn) return reply;
    const { token: pending, challenge } = signingIn;
    const { body } = request;
    const { method } = body;
    // A recovery code is 50 random bits: guessing one is hopeless at any pace, so it gets through
    // the pair's back-off (an operator whose address is under attack from their own network can
    // still sign in), limited only by the network's. A 6-digit TOTP code or a passkey answer is
    // not: both apply.
    const which = method === 'recovery' ? 'network only' : 'pair and network';
    // A secret this server cannot read is its fault, not a wrong answer: said before a try is used.
    // ('' for the other factors, which need none.)
    const secret =
      body.method === 'totp' ? gate.openSecret(request, challenge.operatorId, challenge.sealedTotpSecret) : '';
    if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
    // Every limit is taken before the answer is read, each in one atomic step: the back-off's try,
    // the operator's code try, the pending sign-in's try. One refused gives back what was taken.
    const taken = await gate.takeTry(request, reply, challenge.email, which);
    if (!taken) return reply;
    const who: Who = { id: challenge.operatorId, email: challenge.email };
    // Only the authenticator code is held: a passkey and a recovery code cannot be guessed, and the
    // holder of the real device must always have a way in.
    const codeTry = method === 'totp' ? await gate.takeCodeTry(request, reply, who, 'sign-in', taken) : null;
    if (method === 'totp' && codeTry === null) return reply;
    // One of the pending sign-in's five tries.
    const tryNumber = await claimChallengeTry(db(), pending);
    if (tryNumber === null) {
      await gate.giveBack(taken);
      if (codeTry !== null) await gate.giveCodeBack(who);
      return spent(reply);
    }
    const now = api.clock();
    let accepted: boolean;
    let passkey: PasskeyUse | null = null;
    if (body.method === 'totp') {
      const step = totpStep(secret, body.code, now);
      accepted = step !== null && (await claimTotpStep(db(), challenge.operatorId, step));
    } else if (body.method === 'recovery') {
      accepted = await claimRecoveryCode(db(), challenge.operatorId, body.code, now);
    } else {
      // The pending sign-in's own challenge (passkey-routes.ts issued it), for its operator's passkeys.
      const binding = { pendingHash: tokenHash(pending) };
      passkey = await verifyPasskeyUse(
        db(),
        opts.relyingParty,
        { operatorId: challenge.operatorId, purpose: 'sign-in', binding, response: body.response },
        now,
      );
      accepted = passkey.ok;
    }
    if (!accepted) {
      await gate.wrong(request, taken);
      if (codeTry !== null) await gate.wrongCode(request, who, codeTry);
      const last = tryNumber >= SECOND_FACTOR_TRIES;
      const why =
        passkey && !passkey.ok
          ? passkey.refusal.detail
          : method === 'totp'
            ? 'wrong or reused authenticator code'
            : 'wrong or used recovery code';
      await audit(request, {
        action: 'sign-in.failed',
        subject: challenge.email,
        detail: last ? `${why}; the fifth wrong answer: the sign-in was stopped` : why,
      });
      if (last) return spent(reply);
      if (passkey && !passkey.ok) return reply.code(400).send(apiError('bad_request', passkey.refusal.message));
      return reply.code(400).send(apiError('invalid_fields', codeFailedMessage, { code: codeFailedMessage }));
    }
    await gate.right(request, taken);
    if (codeTry !== null) await gate.giveCodeBack(who);
    await endChallenge(db(), pending);
    // A new session id at every sign-in; a session this browser still had is ended.
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await endSessionByToken(db(), previous);
    const browser = browserSummary(request.headers['user-agent']);
    // An authenticator code or a passkey is fresh proof; a recovery code is not (it proves less: a
    // paper copy), except while the operator's codes are held: then an operator without a passkey
    // would have no way to confirm an export or a send, and someone guessing with the stolen
    // password could keep it so (issue 38). The guesser has no recovery code (50 random bits).
    const heldUntil = method === 'recovery' ? await codesHeldUntil(db(), challenge.operatorId, now) : null;
    const fresh = method !== 'recovery' || heldUntil !== null;
    const session = await createSession(db(), { operatorId: challenge.operatorId, browser, now, freshProof: fresh });
    reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
    reply.setCookie(SESSION_COOKIE, session.token, cookieOptions(sessionTimes.absoluteMs));
    const left = await recoveryCodesLeft(db(), challenge.operatorId);
    request.operator = {
      id: challenge.operatorId,
      email: challenge.email,
      sessionId: session.id,
      freshProofAt: fresh ? now : null,
      role: challenge.role,
    };
    await audit(request, {
      action: 'sign-in.succeeded',
      subject: challenge.email,
      detail: passkey?.ok
        ? `${browser}, with the passkey “${passkey.name}”`
        : method === 'totp'
          ? browser
          : `${browser}, with a recovery code (${left} left)${heldUntil ? ', as fresh proof while codes are held' : ''}`,
    });
    if (passkey?.ok)
      await audit(request, {
        action: 'passkey.used',
        subject: challenge.email,
        detail: `“${passkey.name}”, to sign in`,
      });
    return {
      operator: { email: challenge.email, role: challenge.role },
      freshProofUntil: fresh ? (freshProofUntil(now)?.toISOString() ?? null) : null,
      recoveryCodesLeft: left,
    } satisfies OperatorSession;
  });

  registerContract(api, sessionContract, { onRequest: requireRole('viewer') }, async (request) => {
    const operator = operatorOf(request);
    const until = freshProofUntil(operator.freshProofAt);
    return {
      operator: { email: operator.email, role: operator.role },
      freshProofUntil: until && until.getTime() > api.clock().getTime() ? until.toISOString() : null,
      recoveryCodesLeft: await recoveryCodesLeft(db(), operator.id),
    } satisfies OperatorSession;
  });

  registerContract(api, signOutContract, { onRequest: requireRole('viewer') }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await endSessionByToken(db(), token);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    await audit(request, { action: 'sign-out' });
    return { message: 'You are signed out.' };
  });

  registerFreshProofRoutes(api, { relyingParty: opts.relyingParty, gate });
}
