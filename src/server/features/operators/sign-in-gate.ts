import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { SecretBoxError } from '../../store/secret-box.ts';
import { audit } from '../audit/index.ts';
import { findOperator, openTotpSecret, operatorKey } from './operators.ts';
import {
  ADDRESS_ALERT_FAILURES,
  OPERATOR_HOLD_MS,
  OPERATOR_WRONG_CODES,
  type FailureCounters,
  type SignInCounters,
} from './sign-in-backoff.ts';

// What the sign-in steps and fresh proof share (sign-in-routes.ts, fresh-proof-routes.ts): the
// back-off in front of every answer checked (sign-in-backoff.ts holds its counters and limits),
// the counts and alerts a failure leaves behind, and the authenticator secret opened or refused
// in words. One place, so a guess is counted the same wherever it is made.

/** Minutes past 90 seconds, as a person says a wait. */
const waitWords = (seconds: number): string =>
  seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;

/** While an operator's authenticator codes are held: the other ways in, by the step that asked. */
const codesHeldMessage = (wait: string, at: 'sign-in' | 'fresh-proof'): string =>
  `Codes from your authenticator app are paused for this account for ${wait}, after too many wrong codes. ` +
  (at === 'sign-in'
    ? 'Please use a recovery code or a passkey instead.'
    : 'Please confirm with a passkey instead, or try again then.');

/** An authenticator secret the server cannot open, in the words the operator is shown. */
export const unreadableSecretMessage =
  'Your authenticator secret cannot be read on this server (its encryption key is not configured). Ask an administrator: the server log says which key is missing.';

type Check = [FailureCounters, string];
/** Which back-off keys an answer is checked against: a recovery code skips the pair's (sign-in-routes.ts). */
type Which = 'pair and network' | 'network only';
export type Who = { id: string; email: string };
export type SignInGate = ReturnType<typeof signInGate>;

export function signInGate(api: FastifyInstance, counters: SignInCounters) {
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
  const checks = (email: string, request: FastifyRequest, which: Which): Check[] => [
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

  /**
   * 429 with Retry-After when the address's pair or the network is backing off (`which` says
   * whether the pair counts); decided before any hash or code check.
   */
  async function refuseWhileBlocked(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    which: Which = 'pair and network',
  ): Promise<boolean> {
    const now = api.clock().getTime();
    const keys = checks(email, request, which);
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
  function openSecret(request: FastifyRequest, operatorId: string, sealed: string): string | null {
    try {
      return openTotpSecret(api.keys.secrets, operatorId, sealed);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      request.log.error(error.message);
      return null;
    }
  }

  return { refuseWhileBlocked, refuseWhileCodesHeld, wrongCode, fail, succeed, openSecret };
}
