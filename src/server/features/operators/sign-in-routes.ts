import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import {
  codeFailedMessage,
  secondFactorSpentMessage,
  sessionTimes,
  signInFailedMessage,
  type OperatorSession,
} from '../../../shared/admin/sign-in-schema.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { audit } from '../audit/index.ts';
import { freshProofUntil, operatorOf, pendingSignIn, requireRole } from './guards.ts';
import {
  claimRecoveryCode,
  claimTotpStep,
  findOperator,
  openTotpSecret,
  operatorKey,
  recoveryCodesLeft,
  replacePasswordHash,
} from './operators.ts';
import { verifyPasskeyUse, type PasskeyUse, type RelyingParty } from './passkeys.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import {
  ADDRESS_ALERT_FAILURES,
  OPERATOR_HOLD_MS,
  OPERATOR_WRONG_CODES,
  type FailureCounters,
  type SignInCounters,
} from './sign-in-backoff.ts';
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
  setFreshProof,
  tokenHash,
} from './sessions.ts';
import { totpStep } from './totp.ts';
import { SecretBoxError } from '../../store/secret-box.ts';
import { browserSummary } from './user-agent.ts';
import {
  freshProofContract,
  freshProofPasskeyContract,
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

/** Minutes past 90 seconds, as a person says a wait. */
const waitWords = (seconds: number): string =>
  seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;

/** While an operator's authenticator codes are held: the other ways in, by the step that asked. */
const codesHeldMessage = (wait: string, at: 'sign-in' | 'fresh-proof'): string =>
  `Codes from your authenticator app are paused for this account for ${wait}, after too many wrong codes. ` +
  (at === 'sign-in'
    ? 'Please use a recovery code or a passkey instead.'
    : 'Please confirm with a passkey instead, or try again then.');

const httpsMessage =
  'The console signs in only over HTTPS (or at http://localhost on the server itself). Please use its https:// address.';

export function registerSignInRoutes(
  api: FastifyInstance,
  /** `relyingParty`: where passkeys are bound (passkeys.ts); null when PUBLIC_URL is an IP address. */
  opts: { publicUrl: string; counters: SignInCounters; relyingParty: RelyingParty | null },
): void {
  const { counters } = opts;
  const db = () => api.store.db;

  // Back-off keys: keyed hashes, so the counters hold neither addresses nor IPs (decision 0029).
  // The pair (address, client network) backs off after 5 failures; the network alone after 20;
  // the address across every network only raises an alert, so strangers elsewhere cannot lock the
  // operator out.
  const network = (request: FastifyRequest) => clientNetwork(request.ip);
  const addressHash = (email: string) => api.keys.sign('admin-backoff-address', operatorKey(email));
  const pairKey = (email: string, request: FastifyRequest) =>
    `p:${api.keys.sign('admin-backoff-pair', `${operatorKey(email)}\n${network(request)}`)}`;
  const networkKey = (request: FastifyRequest) => `c:${api.keys.sign('admin-backoff-client', network(request))}`;
  type Check = [FailureCounters, string];
  const checks = (email: string, request: FastifyRequest, which: 'pair and network' | 'network only'): Check[] => [
    ...(which === 'pair and network' ? [[counters.pair, pairKey(email, request)] as Check] : []),
    [counters.network, networkKey(request)],
  ];

  /**
   * One more failed or refused try at an address, from any network. Crossing the ceiling raises
   * the alert once (until an hour passes without a try): a warn line naming the operator by id (or
   * the address by its keyed hash, never the address) and an audit entry.
   */
  async function pressOn(request: FastifyRequest, email: string): Promise<void> {
    const key = `alert:${addressHash(email)}`;
    const now = api.clock().getTime();
    const before = await counters.address.blockedUntil(key, now);
    await counters.address.recordFailure(key, now);
    if (before !== null || (await counters.address.blockedUntil(key, now)) === null) return;
    const operator = await findOperator(db(), email);
    request.log.warn(
      {
        operator: operator?.id ?? null,
        addressHash: operator ? undefined : addressHash(email),
        failures: ADDRESS_ALERT_FAILURES,
      },
      'many failed sign-ins for one console address from any network: not locked, each network backs off on its own',
    );
    await audit(request, {
      action: 'sign-in.alert',
      subject: operator?.email ?? null,
      detail: `${ADDRESS_ALERT_FAILURES} failed or refused sign-ins within an hour, from any network${operator ? '' : ' (not an operator’s address)'}`,
    });
  }

  /** 429 with Retry-After when a key is backing off; decided before any hash or code check. */
  async function refuseWhileBlocked(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    keys: Check[],
  ): Promise<boolean> {
    const now = api.clock().getTime();
    const until = Math.max(0, ...(await Promise.all(keys.map(([c, k]) => c.blockedUntil(k, now)))).map((u) => u ?? 0));
    if (until <= now) return false;
    // A refused try still presses on the address: the alert hears of an attack the back-off stops.
    await pressOn(request, email);
    const seconds = Math.ceil((until - now) / 1000);
    await reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(apiError('rate_limited', `Too many failed tries. Please wait ${waitWords(seconds)} and try again.`));
    return true;
  }

  // Wrong authenticator codes per operator, from every network together (operatorCodesPolicy in
  // sign-in-backoff.ts): keyed by the operator's id, at sign-in and as fresh proof alike.
  const codesKey = (operatorId: string) => `o:${api.keys.sign('admin-backoff-operator', operatorId)}`;
  type Who = { id: string; email: string };

  /**
   * While the operator's codes are held, a code is refused unread: 429 with Retry-After, the words
   * also beside the code field (so the console shows them there and keeps the passkey and the
   * recovery code usable rather than counting the wait down over every button). It presses on the
   * address like any refused try, but uses none of the pending sign-in's tries.
   */
  async function refuseWhileCodesHeld(
    request: FastifyRequest,
    reply: FastifyReply,
    who: Who,
    at: 'sign-in' | 'fresh-proof',
  ): Promise<boolean> {
    const now = api.clock().getTime();
    const until = await counters.operatorCodes.blockedUntil(codesKey(who.id), now);
    if (until === null || until <= now) return false;
    await pressOn(request, who.email);
    const seconds = Math.ceil((until - now) / 1000);
    const message = codesHeldMessage(waitWords(seconds), at);
    await reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(apiError('rate_limited', message, { code: message }));
    return true;
  }

  /**
   * A wrong authenticator code counts for its operator too. The one that starts a hold says so: a
   * warn line naming the operator by id and an audit entry. Each such code came after the right
   * password (or in a signed-in session), so the entry says the password is known.
   */
  async function wrongCode(request: FastifyRequest, who: Who): Promise<void> {
    const now = api.clock().getTime();
    const key = codesKey(who.id);
    await counters.operatorCodes.recordFailure(key, now);
    if ((await counters.operatorCodes.blockedUntil(key, now)) === null) return;
    const minutes = OPERATOR_HOLD_MS / 60_000;
    request.log.warn(
      { operator: who.id, wrongCodes: OPERATOR_WRONG_CODES, heldMinutes: minutes },
      'many wrong authenticator codes for one operator from any network: their codes are held (passkeys and recovery codes still work)',
    );
    await audit(request, {
      action: 'sign-in.codes-held',
      subject: who.email,
      detail:
        `${OPERATOR_WRONG_CODES} wrong authenticator codes from any network, each within an hour of the one before: ` +
        `codes held for ${minutes} minutes ` +
        '(passkeys and recovery codes still work). Each came after the right password or in a signed-in session: change the password.',
    });
  }

  /** A spent pending sign-in: the cookie goes, and the password step again. */
  async function spent(reply: FastifyReply): Promise<FastifyReply> {
    reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
    return reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', secondFactorSpentMessage));
  }

  /** A failure counts for the pair and the network (whichever was checked or not), and on the address. */
  async function fail(request: FastifyRequest, email: string): Promise<void> {
    const now = api.clock().getTime();
    await Promise.all(checks(email, request, 'pair and network').map(([c, k]) => c.recordFailure(k, now)));
    await pressOn(request, email);
  }

  /**
   * A full sign-in (or fresh proof) clears the pair's count: it proves the operator, not the
   * network, so the network's count stays until it is forgotten (a day), and the address's alert
   * count stays (an attack does not stop because the operator got in).
   */
  const succeed = (email: string, request: FastifyRequest) => counters.pair.reset(pairKey(email, request));

  // An authenticator secret the server cannot open (a data key missing after a rotation, a row
  // altered): the operator is told in words, the log says which key (never the secret).
  const unreadableSecretMessage =
    'Your authenticator secret cannot be read on this server (its encryption key is not configured). Ask an administrator: the server log says which key is missing.';
  function openSecret(request: FastifyRequest, operatorId: string, sealed: string): string | null {
    try {
      return openTotpSecret(api.keys.secrets, operatorId, sealed);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      request.log.error(error.message);
      return null;
    }
  }

  registerContract(api, signInContract, { config: { adminPublic: true } }, async (request, reply) => {
    if (!secureEnough(request, opts.publicUrl)) return reply.code(400).send(apiError('bad_request', httpsMessage));
    const { email, password } = request.body;
    if (await refuseWhileBlocked(request, reply, email, checks(email, request, 'pair and network'))) return reply;
    const operator = await findOperator(db(), email);
    // An unknown address is checked against a dummy hash: the same work, the same time.
    const matches = await verifyPassword(operator?.passwordHash ?? (await dummyHash()), password);
    if (!operator || !matches) {
      await fail(request, email);
      // Only an operator's own address is written down: anything else typed there (a personal
      // address, a password in the wrong box) is not ours to keep.
      await audit(request, {
        action: 'sign-in.failed',
        subject: operator?.email ?? null,
        detail: operator ? 'wrong password' : 'unknown address',
      });
      return reply.code(401).send(apiError('unauthorized', signInFailedMessage));
    }
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
    if (await refuseWhileBlocked(request, reply, challenge.email, checks(challenge.email, request, which)))
      return reply;
    const who: Who = { id: challenge.operatorId, email: challenge.email };
    // Only the authenticator code is held: a passkey and a recovery code cannot be guessed, and the
    // holder of the real device must always have a way in.
    if (method === 'totp' && (await refuseWhileCodesHeld(request, reply, who, 'sign-in'))) return reply;
    // A secret this server cannot read is its fault, not a wrong answer: said before a try is used.
    // ('' for the other factors, which need none.)
    const secret = body.method === 'totp' ? openSecret(request, challenge.operatorId, challenge.sealedTotpSecret) : '';
    if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
    // One of the pending sign-in's five tries, taken before the answer is read.
    const tryNumber = await claimChallengeTry(db(), pending);
    if (tryNumber === null) return spent(reply);
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
      await fail(request, challenge.email);
      if (method === 'totp') await wrongCode(request, who);
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
    await succeed(challenge.email, request);
    await endChallenge(db(), pending);
    // A new session id at every sign-in; a session this browser still had is ended.
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await endSessionByToken(db(), previous);
    const browser = browserSummary(request.headers['user-agent']);
    // An authenticator code or a passkey is fresh proof; a recovery code is not (it proves less: a paper copy).
    const fresh = method !== 'recovery';
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
          : `${browser}, with a recovery code (${left} left)`,
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

  registerContract(api, freshProofContract, { onRequest: requireRole('viewer') }, async (request, reply) => {
    const operator = operatorOf(request);
    if (await refuseWhileBlocked(request, reply, operator.email, checks(operator.email, request, 'pair and network')))
      return reply;
    // A stolen session could otherwise guess codes here from network after network.
    if (await refuseWhileCodesHeld(request, reply, operator, 'fresh-proof')) return reply;
    const now = api.clock();
    const found = await findOperator(db(), operator.email);
    const secret = found ? openSecret(request, found.id, found.sealedTotpSecret) : undefined;
    if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
    const step = secret ? totpStep(secret, request.body.code, now) : null;
    if (step === null || !(await claimTotpStep(db(), operator.id, step))) {
      await fail(request, operator.email);
      await wrongCode(request, operator);
      await audit(request, {
        action: 'fresh-proof.failed',
        subject: operator.email,
        detail: 'wrong or reused authenticator code',
      });
      return reply.code(400).send(apiError('invalid_fields', codeFailedMessage, { code: codeFailedMessage }));
    }
    await succeed(operator.email, request);
    await setFreshProof(db(), operator.sessionId, now);
    await audit(request, { action: 'fresh-proof.given', subject: operator.email });
    return { freshProofUntil: new Date(now.getTime() + sessionTimes.freshProofMs).toISOString() };
  });

  registerContract(api, freshProofPasskeyContract, { onRequest: requireRole('viewer') }, async (request, reply) => {
    const operator = operatorOf(request);
    if (await refuseWhileBlocked(request, reply, operator.email, checks(operator.email, request, 'pair and network')))
      return reply;
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
      await fail(request, operator.email);
      await audit(request, { action: 'fresh-proof.failed', subject: operator.email, detail: used.refusal.detail });
      return reply.code(400).send(apiError('bad_request', used.refusal.message));
    }
    await succeed(operator.email, request);
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
