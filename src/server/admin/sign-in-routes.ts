import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema, messageReplySchema } from '../../shared/api-error.ts';
import {
  codeFailedMessage,
  emptyBodySchema,
  freshProofReplySchema,
  freshProofSchema,
  operatorSessionSchema,
  secondFactorSchema,
  sessionTimes,
  signInFailedMessage,
  signInReplySchema,
  signInSchema,
  type OperatorSession,
} from '../../shared/admin/sign-in-schema.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { clientNetwork } from '../lib/client-network.ts';
import { audit } from './audit.ts';
import { freshProofUntil, operatorOf, requireOperator } from './guards.ts';
import { claimRecoveryCode, claimTotpStep, findOperator, openTotpSecret, operatorKey, recoveryCodesLeft, replacePasswordHash } from './operators.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { FailureCounters } from './sign-in-backoff.ts';
import {
  cookieOptions,
  createChallenge,
  createSession,
  endChallenge,
  endSessionByToken,
  findChallenge,
  PENDING_COOKIE,
  SESSION_COOKIE,
  setFreshProof,
} from './sessions.ts';
import { totpStep } from './totp.ts';
import { SecretBoxError } from '../store/secret-box.ts';
import { browserSummary } from './user-agent.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };

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

const httpsMessage = 'The console signs in only over HTTPS (or at http://localhost on the server itself). Please use its https:// address.';

export function registerSignInRoutes(api: FastifyInstance, opts: { publicUrl: string; counters: FailureCounters }): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const { counters } = opts;
  const db = () => api.store.db;

  // Back-off keys: keyed hashes, so the counters hold neither addresses nor IPs.
  const addressKey = (email: string) => `a:${api.keys.sign('admin-backoff-address', operatorKey(email))}`;
  const clientKey = (request: FastifyRequest) => `c:${api.keys.sign('admin-backoff-client', clientNetwork(request.ip))}`;

  /** 429 with Retry-After when either key is backing off; decided before any hash or code check. */
  async function refuseWhileBlocked(reply: FastifyReply, keys: string[]): Promise<boolean> {
    const now = api.clock().getTime();
    const until = Math.max(0, ...(await Promise.all(keys.map((k) => counters.blockedUntil(k, now)))).map((u) => u ?? 0));
    if (until <= now) return false;
    const seconds = Math.ceil((until - now) / 1000);
    const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
    await reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(apiError('rate_limited', `Too many failed tries. Please wait ${wait} and try again.`));
    return true;
  }

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
  const fail = (keys: string[]) => Promise.all(keys.map((k) => counters.recordFailure(k, api.clock().getTime())));

  app.post(
    adminApiPaths.signIn,
    { config: { adminPublic: true }, schema: { body: signInSchema, response: { 200: signInReplySchema, ...errors } } },
    async (request, reply) => {
      if (!secureEnough(request, opts.publicUrl)) return reply.code(400).send(apiError('bad_request', httpsMessage));
      const { email, password } = request.body;
      const keys = [addressKey(email), clientKey(request)];
      if (await refuseWhileBlocked(reply, keys)) return reply;
      const operator = await findOperator(db(), email);
      // An unknown address is checked against a dummy hash: the same work, the same time.
      const matches = await verifyPassword(operator?.passwordHash ?? (await dummyHash()), password);
      if (!operator || !matches) {
        await fail(keys);
        // Only an operator's own address is written down: anything else typed there (a personal
        // address, a password in the wrong box) is not ours to keep.
        await audit(request, { action: 'sign-in.failed', subject: operator?.email ?? null, detail: operator ? 'wrong password' : 'unknown address' });
        return reply.code(401).send(apiError('unauthorized', signInFailedMessage));
      }
      if (needsRehash(operator.passwordHash)) await replacePasswordHash(db(), operator.id, await hashPassword(password));
      const challenge = await createChallenge(db(), operator.id, api.clock());
      reply.setCookie(PENDING_COOKIE, challenge, cookieOptions(sessionTimes.pendingMs));
      return { next: 'second-factor' as const };
    },
  );

  app.post(
    adminApiPaths.secondFactor,
    { config: { adminPublic: true }, schema: { body: secondFactorSchema, response: { 200: operatorSessionSchema, ...errors } } },
    async (request, reply) => {
      const pending = request.cookies[PENDING_COOKIE];
      const challenge = pending ? await findChallenge(db(), pending, api.clock()) : null;
      if (!pending || !challenge) {
        reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
        return reply.code(401).send(apiError('unauthorized', 'Your sign-in has timed out. Please enter your email and password again.'));
      }
      const keys = [addressKey(challenge.email), clientKey(request)];
      if (await refuseWhileBlocked(reply, keys)) return reply;
      const now = api.clock();
      const { method, code } = request.body;
      let accepted: boolean;
      if (method === 'totp') {
        const secret = openSecret(request, challenge.operatorId, challenge.sealedTotpSecret);
        if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
        const step = totpStep(secret, code, now);
        accepted = step !== null && (await claimTotpStep(db(), challenge.operatorId, step));
      } else {
        accepted = await claimRecoveryCode(db(), challenge.operatorId, code, now);
      }
      if (!accepted) {
        await fail(keys);
        await audit(request, {
          action: 'sign-in.failed',
          subject: challenge.email,
          detail: method === 'totp' ? 'wrong or reused authenticator code' : 'wrong or used recovery code',
        });
        return reply.code(400).send(apiError('invalid_fields', codeFailedMessage, { code: codeFailedMessage }));
      }
      await Promise.all(keys.map((k) => counters.reset(k)));
      await endChallenge(db(), pending);
      // A new session id at every sign-in; a session this browser still had is ended.
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await endSessionByToken(db(), previous);
      const browser = browserSummary(request.headers['user-agent']);
      // An authenticator code is fresh proof; a recovery code is not (it proves less: a paper copy).
      const session = await createSession(db(), { operatorId: challenge.operatorId, browser, now, freshProof: method === 'totp' });
      reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
      reply.setCookie(SESSION_COOKIE, session.token, cookieOptions(sessionTimes.absoluteMs));
      const left = await recoveryCodesLeft(db(), challenge.operatorId);
      request.operator = { id: challenge.operatorId, email: challenge.email, sessionId: session.id, freshProofAt: method === 'totp' ? now : null };
      await audit(request, {
        action: 'sign-in.succeeded',
        subject: challenge.email,
        detail: method === 'totp' ? browser : `${browser}, with a recovery code (${left} left)`,
      });
      return {
        operator: { email: challenge.email },
        freshProofUntil: method === 'totp' ? (freshProofUntil(now)?.toISOString() ?? null) : null,
        recoveryCodesLeft: left,
      } satisfies OperatorSession;
    },
  );

  app.get(
    adminApiPaths.session,
    { onRequest: requireOperator, schema: { response: { 200: operatorSessionSchema, ...errors } } },
    async (request) => {
      const operator = operatorOf(request);
      const until = freshProofUntil(operator.freshProofAt);
      return {
        operator: { email: operator.email },
        freshProofUntil: until && until.getTime() > api.clock().getTime() ? until.toISOString() : null,
        recoveryCodesLeft: await recoveryCodesLeft(db(), operator.id),
      } satisfies OperatorSession;
    },
  );

  app.post(
    adminApiPaths.signOut,
    { onRequest: requireOperator, schema: { body: emptyBodySchema, response: { 200: messageReplySchema, ...errors } } },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await endSessionByToken(db(), token);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
      await audit(request, { action: 'sign-out' });
      return { message: 'You are signed out.' };
    },
  );

  app.post(
    adminApiPaths.freshProof,
    { onRequest: requireOperator, schema: { body: freshProofSchema, response: { 200: freshProofReplySchema, ...errors } } },
    async (request, reply) => {
      const operator = operatorOf(request);
      const keys = [addressKey(operator.email), clientKey(request)];
      if (await refuseWhileBlocked(reply, keys)) return reply;
      const now = api.clock();
      const found = await findOperator(db(), operator.email);
      const secret = found ? openSecret(request, found.id, found.sealedTotpSecret) : undefined;
      if (secret === null) return reply.code(500).send(apiError('internal', unreadableSecretMessage));
      const step = secret ? totpStep(secret, request.body.code, now) : null;
      if (step === null || !(await claimTotpStep(db(), operator.id, step))) {
        await fail(keys);
        await audit(request, { action: 'fresh-proof.failed', subject: operator.email, detail: 'wrong or reused authenticator code' });
        return reply.code(400).send(apiError('invalid_fields', codeFailedMessage, { code: codeFailedMessage }));
      }
      await Promise.all(keys.map((k) => counters.reset(k)));
      await setFreshProof(db(), operator.sessionId, now);
      await audit(request, { action: 'fresh-proof.given', subject: operator.email });
      return { freshProofUntil: new Date(now.getTime() + sessionTimes.freshProofMs).toISOString() };
    },
  );
}
