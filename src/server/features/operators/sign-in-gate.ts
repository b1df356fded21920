import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { SecretBoxError } from '../../store/secret-box.ts';
import { audit } from '../audit/index.ts';
import { giveCodeTryBack, OPERATOR_HOLD_MS, OPERATOR_WRONG_CODES, takeCodeTry } from './code-tries.ts';
import { codesHeldEmail, mailOwners } from './codes-held-mail.ts';
import { findOperator, openTotpSecret, operatorKey, ownerAddresses } from './operators.ts';
import { ADDRESS_ALERT_FAILURES, type FailureCounters, type SignInCounters, type TakenTry } from './sign-in-backoff.ts';

// What the sign-in steps and fresh proof share (sign-in-routes.ts, fresh-proof-routes.ts): the
// back-off in front of every answer checked (sign-in-backoff.ts holds its counters and limits,
// code-tries.ts the wrong codes per operator), the counts and alerts a failure leaves behind, and
// the authenticator secret opened or refused in words. One place, so a guess is counted the same
// wherever it is made.
//
// Every limit here is taken before the answer is checked, in one atomic step of its store: a
// check read before the awaits and a failure written after them once let answers sent at once
// all pass (decision 0063). `takeTry` reserves a try from the count for the address from this
// network (the pair) and from the network's own, `takeCodeTry` one of the operator's ten codes.
// A wrong answer keeps what it took; a right one gives it back (`right`, `giveCodeBack`), and so
// does an answer refused before it was checked (`giveBack`).

/** Minutes past 90 seconds, as a person says a wait. */
const waitWords = (seconds: number): string =>
  seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;

/** While an operator's authenticator codes are held: the other ways in, by the step that asked. */
const codesHeldMessage = (wait: string, at: 'sign-in' | 'fresh-proof'): string =>
  `Codes from your authenticator app are paused for this account for ${wait}, after too many wrong codes. ` +
  (at === 'sign-in'
    ? 'Please use a recovery code or a passkey instead: either also confirms exports and sends while codes are paused.'
    : 'Please confirm with a passkey instead, or sign out and sign in again with a recovery code, which confirms while codes are paused.');

/** An authenticator secret the server cannot open, in the words the operator is shown. */
export const unreadableSecretMessage =
  'Your authenticator secret cannot be read on this server (its encryption key is not configured). Ask an administrator: the server log says which key is missing.';

type Check = [FailureCounters, string];
/** The back-off tries one answer took (takeTry), to keep if it was wrong or give back. */
export type TakenTries = { email: string; tries: [FailureCounters, string, TakenTry][] };
/**
 * Which back-off counts an answer is checked against: a recovery code skips the one for its address
 * from its network, and meets only the network's (second-factor.ts).
 */
type Which = 'pair and network' | 'network only';
export type Who = { id: string; email: string };
export type SignInGate = ReturnType<typeof signInGate>;

export function signInGate(api: FastifyInstance, counters: SignInCounters, publicUrl: string) {
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
   * One more failed or refused try at an address, from any network. The try that brings the count
   * to the ceiling raises the alert (once, until an hour passes without a try; the count is taken
   * and read in one step, so tries at once raise it once): a warn line naming the operator by id
   * (or the address by its keyed hash, never the address) and an audit entry.
   */
  async function pressOn(request: FastifyRequest, email: string): Promise<void> {
    const count = await counters.address.recordFailure(`alert:${addressHash(email)}`, api.clock().getTime());
    if (count !== ADDRESS_ALERT_FAILURES) return;
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

  /** 429 with Retry-After, in words; a refused try still presses on the address (the alert hears of it). */
  async function refuse(request: FastifyRequest, reply: FastifyReply, email: string, until: number, message?: string) {
    await pressOn(request, email);
    const seconds = Math.max(1, Math.ceil((until - api.clock().getTime()) / 1000));
    const words = message ?? `Too many failed tries. Please wait ${waitWords(seconds)} and try again.`;
    await reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(apiError('rate_limited', words, message ? { code: message } : undefined));
  }

  /**
   * Takes a try from the address's pair and from the network (`which` says whether the pair
   * counts), each in one atomic step, before any hash or code is checked; or answers 429 with
   * Retry-After when either is backing off (giving back what was taken) and returns null.
   */
  async function takeTry(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    which: Which = 'pair and network',
  ): Promise<TakenTries | null> {
    const now = api.clock().getTime();
    const keys = checks(email, request, which);
    const taken: TakenTries = { email, tries: [] };
    for (const [c, k] of keys) {
      const t = await c.take(k, now);
      if ('taken' in t) {
        taken.tries.push([c, k, t.taken]);
        continue;
      }
      await giveBack(taken);
      // The wait said is the longest of the keys' (a read for the words only: nothing is taken).
      const others = await Promise.all(keys.map(([oc, ok]) => oc.blockedUntil(ok, now)));
      await refuse(request, reply, email, Math.max(t.until, ...others.map((u) => u ?? 0)));
      return null;
    }
    return taken;
  }

  /** Tries taken for an answer that was never checked (refused by a later limit): they do not count. */
  async function giveBack(taken: TakenTries): Promise<void> {
    for (const [c, k, t] of taken.tries) await c.giveBack(k, t);
  }

  /**
   * A wrong answer: its tries stay taken (they are its failures), the pair counts it even when it
   * was not asked (a recovery code: it still says someone at this network is guessing), and it
   * presses on the address.
   */
  async function wrong(request: FastifyRequest, taken: TakenTries): Promise<void> {
    if (!taken.tries.some(([c]) => c === counters.pair))
      await counters.pair.recordFailure(pairKey(taken.email, request), api.clock().getTime());
    await pressOn(request, taken.email);
  }

  /**
   * A full sign-in (or fresh proof) clears the count for its address from its network (the pair's)
   * and gives the network its try back: it proves the operator, not the network, so the network's
   * earlier failures stay until they are forgotten (a day), and the address's alert count stays
   * (an attack does not stop because the operator got in).
   */
  async function right(request: FastifyRequest, taken: TakenTries): Promise<void> {
    await giveBack({ ...taken, tries: taken.tries.filter(([c]) => c !== counters.pair) });
    await counters.pair.reset(pairKey(taken.email, request));
  }

  /**
   * Takes one of the operator's ten authenticator codes an hour (code-tries.ts) before the code
   * is read: its number, or, while the codes are held, null after a 429 with Retry-After, the words
   * also beside the code field (so the console shows them there and keeps the passkey and the
   * recovery code usable rather than counting the wait down over every button). Refused, it
   * presses on the address like any refused try, and gives back the back-off tries `taken`.
   */
  async function takeCodeTryOr429(
    request: FastifyRequest,
    reply: FastifyReply,
    who: Who,
    at: 'sign-in' | 'fresh-proof',
    taken: TakenTries,
  ): Promise<number | null> {
    const now = api.clock();
    const codeTry = await takeCodeTry(db(), who.id, now);
    if (codeTry.taken) return codeTry.number;
    await giveBack(taken);
    const seconds = Math.ceil((codeTry.heldUntil.getTime() - now.getTime()) / 1000);
    await refuse(request, reply, who.email, codeTry.heldUntil.getTime(), codesHeldMessage(waitWords(seconds), at));
    return null;
  }

  /** A right code (or one never checked) gives the operator's code try back. */
  const giveCodeBack = (who: Who) => giveCodeTryBack(db(), who.id);

  /**
   * A wrong authenticator code keeps its try. The one that starts a hold (the tenth) says so: a
   * warn line naming the operator by id, an audit entry, and an email to every owner. Each such
   * code came after the right password (or in a signed-in session), so both say the password is
   * known.
   */
  async function wrongCode(request: FastifyRequest, who: Who, tryNumber: number): Promise<void> {
    if (tryNumber !== OPERATOR_WRONG_CODES) return;
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
    const site = new URL(publicUrl).host;
    mailOwners(api, request, await ownerAddresses(db()), (to) =>
      codesHeldEmail({ to, operatorEmail: who.email, wrongCodes: OPERATOR_WRONG_CODES, heldMinutes: minutes, site }),
    );
  }

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

  return { takeTry, giveBack, wrong, right, takeCodeTry: takeCodeTryOr429, giveCodeBack, wrongCode, openSecret };
}
