import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import {
  codeFailedMessage,
  secondFactorSpentMessage,
  sessionTimes,
  type OperatorSession,
} from '../../../shared/admin/sign-in-schema.ts';
import type { secondFactorContract } from '../../../shared/admin/contracts.ts';
import type { ContractRequest } from '../../lib/register-contract.ts';
import { audit } from '../audit/index.ts';
import { codesHeldUntil } from './code-tries.ts';
import { freshProofUntil, pendingSignIn } from './guards.ts';
import { claimRecoveryCode, claimTotpStep, recoveryCodesLeft } from './operators.ts';
import { verifyPasskeyUse, type PasskeyUse, type RelyingParty } from './passkeys.ts';
import { type SignInGate, type TakenTries, unreadableSecretMessage, type Who } from './sign-in-gate.ts';
import {
  claimChallengeTry,
  cookieOptions,
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

// The second step of signing in: an authenticator code, a passkey or a recovery code, after the
// right password. The order is what makes it safe against answers sent at once: every limit is
// taken first, each in one atomic step of its store (takeEveryLimit), then the answer is checked
// (checkCode, checkPasskey), then a wrong answer keeps what it took (refuseWrong) and a right one
// gives it back and opens the session (openSession). Checking the answer before taking a limit would let
// a burst of guesses all be checked against the same count (decision 0063).

export type SecondFactorDeps = { api: FastifyInstance; gate: SignInGate; relyingParty: RelyingParty | null };
type SecondFactorRequest = ContractRequest<typeof secondFactorContract>;
type SecondFactor = SecondFactorRequest['body'];
type Pending = NonNullable<Awaited<ReturnType<typeof pendingSignIn>>>;
/** What one answer took before it was read: kept if the answer is wrong, given back if it is right. */
type Taken = { tries: TakenTries; codeTry: number | null; tryNumber: number; who: Who };
/** One checked answer: the pending sign-in it was for, what it took, and how it was given. */
type Answer = Pending & {
  taken: Taken;
  method: SecondFactor['method'];
  /** The passkey's verdict, for a passkey answer (null for a code). */
  passkey: PasskeyUse | null;
  now: Date;
};

/** A spent pending sign-in: the cookie goes, and the password step again. */
async function spent(reply: FastifyReply): Promise<FastifyReply> {
  reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
  return reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', secondFactorSpentMessage));
}

/** The second-factor route's handler: the pending sign-in from its cookie, then the steps above. */
export async function answerSecondFactor(
  deps: SecondFactorDeps,
  request: SecondFactorRequest,
  reply: FastifyReply,
): Promise<FastifyReply | OperatorSession> {
  const signingIn = await pendingSignIn(request, reply);
  if (!signingIn) return reply;
  const { body } = request;
  const { challenge } = signingIn;
  // A secret this server cannot read is its fault, not a wrong answer: said before a try is used.
  // ('' for the other factors, which need none.)
  const secret =
    body.method === 'totp' ? deps.gate.openSecret(request, challenge.operatorId, challenge.sealedTotpSecret) : '';
  if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
  const taken = await takeEveryLimit(deps, request, reply, signingIn, body.method);
  if (!taken) return reply;
  const now = deps.api.clock();
  const passkey = body.method === 'passkey' ? await checkPasskey(deps, signingIn, body.response, now) : null;
  const accepted =
    body.method === 'passkey' ? passkey?.ok === true : await checkCode(deps, challenge, body, secret, now);
  const answer: Answer = { ...signingIn, taken, method: body.method, passkey, now };
  if (!accepted) return refuseWrong(deps, request, reply, answer);
  return openSession(deps, request, reply, answer);
}

/**
 * Takes every limit before the answer is read, each in one atomic step: a try from the back-off,
 * one of the operator's authenticator-code tries (codes only), one of the pending sign-in's five
 * tries. When one is refused, what was already taken is given back, the refusal has been sent,
 * and the result is null.
 */
async function takeEveryLimit(
  { api, gate }: SecondFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  { token: pending, challenge }: Pending,
  method: SecondFactor['method'],
): Promise<Taken | null> {
  // A recovery code is 50 random bits: guessing one is hopeless at any pace, so it is not held
  // back by the count for this address from this network (an operator whose address is attacked
  // from their own network can still sign in); only the network's own count applies. A 6-digit
  // code or a passkey answer counts against both.
  const which = method === 'recovery' ? 'network only' : 'pair and network';
  const tries = await gate.takeTry(request, reply, challenge.email, which);
  if (!tries) return null;
  const who: Who = { id: challenge.operatorId, email: challenge.email };
  // Only the authenticator code is held after many wrong ones: a passkey and a recovery code
  // cannot be guessed, and the holder of the real device must always have a way in.
  const codeTry = method === 'totp' ? await gate.takeCodeTry(request, reply, who, 'sign-in', tries) : null;
  if (method === 'totp' && codeTry === null) return null;
  const tryNumber = await claimChallengeTry(api.store.db, pending);
  if (tryNumber === null) {
    await gate.giveBack(tries);
    if (codeTry !== null) await gate.giveCodeBack(who);
    await spent(reply);
    return null;
  }
  return { tries, codeTry, tryNumber, who };
}

/** An authenticator code (used once per time step) or a recovery code (used once), claimed if right. */
async function checkCode(
  { api }: SecondFactorDeps,
  challenge: Pending['challenge'],
  body: Exclude<SecondFactor, { method: 'passkey' }>,
  secret: string,
  now: Date,
): Promise<boolean> {
  if (body.method === 'recovery') return claimRecoveryCode(api.store.db, challenge.operatorId, body.code, now);
  const step = totpStep(secret, body.code, now);
  return step !== null && (await claimTotpStep(api.store.db, challenge.operatorId, step));
}

/** A passkey's answer to the pending sign-in's own challenge (issued by passkey-routes.ts). */
function checkPasskey(
  { api, relyingParty }: SecondFactorDeps,
  { token: pending, challenge }: Pending,
  response: Extract<SecondFactor, { method: 'passkey' }>['response'],
  now: Date,
): Promise<PasskeyUse> {
  const binding = { pendingHash: tokenHash(pending) };
  return verifyPasskeyUse(
    api.store.db,
    relyingParty,
    { operatorId: challenge.operatorId, purpose: 'sign-in', binding, response },
    now,
  );
}

/**
 * A wrong answer keeps every try it took (they are its failures), is written to the audit log, and
 * is refused in words; the fifth wrong answer also ends the pending sign-in.
 */
async function refuseWrong(
  { gate }: SecondFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  { challenge, taken, method, passkey }: Answer,
): Promise<FastifyReply> {
  await gate.wrong(request, taken.tries);
  if (taken.codeTry !== null) await gate.wrongCode(request, taken.who, taken.codeTry);
  const last = taken.tryNumber >= SECOND_FACTOR_TRIES;
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

/**
 * A right answer gives back the tries it took (and clears the count for this address from this
 * network), ends the pending sign-in, and opens a new session in place of any this browser had.
 */
async function openSession(
  { api, gate }: SecondFactorDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  { token: pending, challenge, taken, method, passkey, now }: Answer,
): Promise<OperatorSession> {
  const db = api.store.db;
  await gate.right(request, taken.tries);
  if (taken.codeTry !== null) await gate.giveCodeBack(taken.who);
  await endChallenge(db, pending);
  // A new session id at every sign-in; a session this browser still had is ended.
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await endSessionByToken(db, previous);
  const browser = browserSummary(request.headers['user-agent']);
  // An authenticator code or a passkey is fresh proof; a recovery code is not (it proves less: a
  // paper copy), except while the operator's codes are held: then an operator without a passkey
  // would have no way to confirm an export or a send, and someone guessing with the stolen
  // password could keep it so. The guesser has no recovery code (50 random bits).
  const heldUntil = method === 'recovery' ? await codesHeldUntil(db, challenge.operatorId, now) : null;
  const fresh = method !== 'recovery' || heldUntil !== null;
  const session = await createSession(db, { operatorId: challenge.operatorId, browser, now, freshProof: fresh });
  reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
  reply.setCookie(SESSION_COOKIE, session.token, cookieOptions(sessionTimes.absoluteMs));
  const left = await recoveryCodesLeft(db, challenge.operatorId);
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
    await audit(request, { action: 'passkey.used', subject: challenge.email, detail: `“${passkey.name}”, to sign in` });
  return {
    operator: { email: challenge.email, role: challenge.role },
    freshProofUntil: fresh ? (freshProofUntil(now)?.toISOString() ?? null) : null,
    recoveryCodesLeft: left,
  } satisfies OperatorSession;
}
