import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { Address, Siwe } from 'ox';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import {
  allowlistChallengeContract,
  allowlistJoinContract,
  allowlistLeaveContract,
  allowlistLinkContract,
  allowlistProofContract,
  allowlistStatusContract,
  type AllowlistPurpose,
} from '../../../shared/allowlist/allowlist-schema.ts';
import { answerLocale } from '../../plugins/request-locale.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { signupSchema } from '../../../shared/signup-schema.ts';
import { signupBatchWith } from '../signups/index.ts';
import { apiError, type ApiErrorCode } from '../../../shared/api-error.ts';
import type { WalletMode } from '../../../shared/content-schema.ts';
import { registerContract, type ContractHandler, type ContractRequest } from '../../lib/register-contract.ts';
import type { RouteContract } from '../../../shared/route-contract.ts';
import type { Database } from '../../store/schema.ts';
import {
  addEntry,
  countCountryRefusal,
  entryStatus,
  issueLinkToken,
  issueNonce,
  removeEntry,
  spendLinkToken,
  useNonce,
  type NonceOutcome,
} from './allowlist-store.ts';
import type { FastPaths } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import { notModifiedFor } from './proof-answers.ts';
import { ProofCache } from './proof-cache.ts';
import { proofFastPath } from './proof-fast-path.ts';
import { askWalletLink } from './wallet-link-store.ts';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { countryNamesIn } from '../../../shared/countries.ts';
import { registrationOpen } from './snapshots.ts';
import { checkSignature, type ContractSignatureCheck, type SignatureVerdict } from './signature-check.ts';
import { MESSAGE_TTL_MS, readMessage, writeMessage, type Declaration, type SiweSite } from './siwe-message.ts';

export interface AllowlistRouteOptions {
  mode: WalletMode;
  site: SiweSite;
  /** What a join declares: the content file's terms version and restricted countries. */
  declaration: Declaration;
  ratePerMinute: number;
  minFillMs: number;
  /** Checks smart-contract wallets' signatures (ETH_RPC_URL); null: they are told it is not set up. */
  contractCheck: ContractSignatureCheck | null;
  /** Where the proof route's fast path goes (decision 0049), with the security headers it sends. */
  fastPaths: FastPaths;
  headersFor: HeadersFor;
}

/** A refusal in words, in the one error shape. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const nonceWords: Record<Exclude<NonceOutcome, 'ok'>, string> = {
  unknown: walletRefusals.unknownNonce,
  used: walletRefusals.usedNonce,
  expired: walletRefusals.expired,
  'other-address': walletRefusals.otherAddress,
  'other-purpose': walletRefusals.wrongStatement,
};

function signatureRefusal(verdict: Exclude<SignatureVerdict, 'valid'>, address: string): Refusal {
  switch (verdict) {
    case 'unreadable':
      return new Refusal(400, 'bad_request', walletRefusals.unreadableSignature);
    case 'high-s':
      return new Refusal(400, 'bad_request', walletRefusals.highS);
    case 'needs-node':
      return new Refusal(400, 'bad_request', walletRefusals.contractWalletUnchecked({ address }));
    case 'node-down':
      return new Refusal(503, 'unavailable', walletRefusals.contractWalletDown);
    case 'other-signer':
      return new Refusal(400, 'bad_request', walletRefusals.otherSigner({ address }));
  }
}

/**
 * The visitor's side of the allowlist: ask for a message, send it back signed to join or to
 * leave, and read an address's status. Writes are same-origin with the CSRF token and the time
 * trap, as the sign-up form's are, and limited per client network (shared through Redis).
 */
export function registerAllowlistRoutes(app: FastifyInstance, opts: AllowlistRouteOptions): void {
  const { protection, clock } = app;
  const rateLimit = {
    max: opts.ratePerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_req: unknown, ctx: { ttl: number }) => ({
      statusCode: 429,
      message: walletRefusals.tooMany({ seconds: Math.max(1, Math.ceil(ctx.ttl / 1000)) }),
    }),
  };
  const writeOpts = {
    config: { rateLimit },
    preValidation: [protection.sameOrigin, protection.csrfToken],
  };

  const refuse = (reply: FastifyReply, refusal: Refusal) =>
    reply.code(refusal.status).send(apiError(refusal.code, refusal.message));
  /** A handler whose Refusals are answered in the one error shape; anything else is a 500 as usual. */
  const refusing =
    <C extends RouteContract>(
      handler: (request: ContractRequest<C>) => ReturnType<ContractHandler<C>>,
    ): ContractHandler<C> =>
    async (request, reply) => {
      try {
        return await handler(request);
      } catch (error) {
        if (error instanceof Refusal) return refuse(reply, error);
        throw error;
      }
    };

  /**
   * Whether this purpose is open now; a Refusal when not. Joining needs the content file's
   * 'allowlist' mode and registration open (a frozen snapshot may have closed it); leaving is
   * open whenever the allowlist is shown at all.
   */
  const assertOpen = async (purpose: AllowlistPurpose, db: Parameters<typeof registrationOpen>[0] = app.store.db) => {
    if (opts.mode === 'coming-soon') throw new Refusal(404, 'not_found', walletRefusals.notOpen);
    if (purpose === 'join' && (opts.mode === 'closed' || !(await registrationOpen(db))))
      throw new Refusal(409, 'conflict', walletRefusals.closed);
  };

  /**
   * Refuses a join that the server's own lookup places in a restricted country, in the visitor's
   * words, counting it by country; the address it came from and the wallet are kept nowhere.
   * Returns the country otherwise, for the entry. A lookup is a friction, not a proof: the signed
   * declaration is what counts (docs/decisions/0068-who-may-join.md).
   */
  const joinCountry = async (request: FastifyRequest): Promise<string> => {
    const { country } = app.geo.lookupLocal(request.ip);
    if (!opts.declaration.restrictedCountries.includes(country)) return country;
    await countCountryRefusal(app.store.db, country);
    const locale = answerLocale(request, true);
    const name = countryNamesIn(localeInfo[locale].tag, [country])[0] ?? country;
    throw new Refusal(
      403,
      'forbidden',
      messagesFor(locale).allowlist.walletRefusals.restrictedCountry({ country: name }),
    );
  };

  /** Every check of a signed message, in order; the message's address once it has passed them all. */
  async function verified<T extends object>(
    request: ContractRequest<typeof allowlistJoinContract>,
    purpose: AllowlistPurpose,
    act: (trx: Transaction<Database>, address: string, now: Date) => Promise<T>,
  ): Promise<{ address: string } & T> {
    const now = clock();
    const read = readMessage(opts.site, request.body.message, now, opts.declaration);
    if (!read.ok) throw new Refusal(400, 'bad_request', read.refusal);
    const { message } = read;
    if (message.purpose !== purpose) throw new Refusal(400, 'bad_request', walletRefusals.wrongStatement);
    const verdict = await checkSignature({
      text: request.body.message,
      signature: request.body.signature,
      address: message.address,
      contractCheck: opts.contractCheck,
    });
    if (verdict !== 'valid') throw signatureRefusal(verdict, message.address);
    // The nonce is used up in the same transaction as the change it allows: both or neither.
    return app.store.db.transaction().execute(async (trx) => {
      const outcome = await useNonce(trx, { nonce: message.nonce, address: message.address, purpose, now });
      if (outcome === 'used') throw new Refusal(409, 'conflict', nonceWords.used);
      if (outcome !== 'ok') throw new Refusal(400, 'bad_request', nonceWords[outcome]);
      return { address: message.address, ...(await act(trx, message.address, now)) };
    });
  }

  registerContract(
    app,
    allowlistChallengeContract,
    writeOpts,
    refusing(async (request) => {
      await assertOpen(request.body.purpose);
      // Before a nonce is written for the address: a refused visitor leaves no row behind.
      if (request.body.purpose === 'join') await joinCountry(request);
      const now = clock();
      const age = protection.msSincePageLoad(request, now);
      if (age === null || age < opts.minFillMs) throw new Refusal(400, 'bad_request', walletRefusals.tooFast);
      const address = Address.checksum(request.body.address as Address.Address);
      const nonce = Siwe.generateNonce();
      const expiresAt = new Date(now.getTime() + MESSAGE_TTL_MS);
      await issueNonce(app.store.db, { nonce, address, purpose: request.body.purpose, now, expiresAt });
      // The terms page the message names is in the page's language, which its script sends.
      const locale = answerLocale(request, true);
      const { purpose } = request.body;
      return {
        message: writeMessage(opts.site, { address, purpose, nonce, now, declaration: opts.declaration, locale }),
      };
    }),
  );

  registerContract(
    app,
    allowlistJoinContract,
    writeOpts,
    refusing(async (request) => {
      await assertOpen('join');
      // The country of the server's own lookup is kept; the address it came from never is.
      const country = await joinCountry(request);
      return await verified(request, 'join', async (trx, address, now) => {
        // Asked again inside the transaction that adds the entry: a freeze that closed
        // registration meanwhile is not joined past.
        await assertOpen('join', trx);
        const since = await addEntry(trx, { address, now, country, termsVersion: opts.declaration.version });
        // The signature just checked, carried forward for one optional request: linking an email.
        return { since, linkToken: await issueLinkToken(trx, address, now) };
      });
    }),
  );

  registerContract(
    app,
    allowlistLeaveContract,
    writeOpts,
    refusing(async (request) => {
      await assertOpen('leave');
      return verified(request, 'leave', async (trx, address) => {
        await removeEntry(trx, address);
        return { since: null };
      });
    }),
  );

  // Linking an email to the wallet that just joined. The wallet's proof is the join's
  // single-use token (decision 0045, Consequences). It is a sign-up too (same checks, same batch,
  // same cool-down, suppression respected), but the link counts only once the email's owner
  // presses the button of an email sent for it, naming the wallet (migration 0024): neither the
  // sign-up's own confirmation nor an address confirmed before confirms it. The answer is the same
  // whatever the address was (new, pending, confirmed, suppressed, cooling down), so it tells
  // nothing about the list.
  const signups = signupBatchWith(app.suppressions);
  registerContract(
    app,
    allowlistLinkContract,
    writeOpts,
    refusing(async (request) => {
      await assertOpen('leave');
      const now = clock();
      // Spent before the sign-up: a token is good for one request, whatever happens next.
      const address = await spendLinkToken(app.store.db, request.body.linkToken, now);
      if (address === null) throw new Refusal(400, 'bad_request', walletRefusals.linkUnproved);
      const place = app.geo.lookupLocal(request.ip);
      // The page's language, which its script sends (src/client/lib/answer-language.ts).
      const locale = answerLocale(request, true);
      const result = await app.committer.runIn(signups, {
        // Through the sign-up's schema, so every other field takes its default, as on the form.
        input: signupSchema.parse({ name: request.body.name, email: request.body.email }),
        meta: {
          now,
          page: pagePaths.home,
          locale,
          location: { country: place.country, region: place.region, city: place.city },
        },
      });
      // A suppressed address is asked nothing (the sign-up stored it and mailed it nothing either).
      const asked = (await app.suppressions.isSuppressed(app.store.db, request.body.email))
        ? 'suppressed'
        : await app.store.db
            .transaction()
            .execute((trx) => askWalletLink(trx, { address, subscriberId: result.subscriberId, now }));
      if (result.emailQueued || asked === 'queued') app.outbox.nudge();
      return { message: messagesFor(locale).allowlist.walletRefusals.linkAsked };
    }),
  );

  registerContract(
    app,
    allowlistStatusContract,
    { config: { rateLimit: { ...rateLimit, max: opts.ratePerMinute * 10 } } },
    async (request, reply) => {
      if (opts.mode === 'coming-soon') return refuse(reply, new Refusal(404, 'not_found', walletRefusals.notOpen));
      return entryStatus(app.store.db, Address.checksum(request.params.address as Address.Address));
    },
  );

  // Proofs for the sale page: public, the same for everyone until the next snapshot, so
  // cacheable by browsers and proxies for a minute, with an entity tag. The answers are written
  // once as bytes (proof-answers.ts), which this route and its fast path both send.
  const proofs = new ProofCache(app.store.db, () => clock().getTime());
  opts.fastPaths.add(proofFastPath(proofs, opts.headersFor));
  registerContract(app, allowlistProofContract, {}, async (request, reply) => {
    const answer = await proofs.answer(request.params.address);
    const notModified = notModifiedFor(answer, request.headers['if-none-match']);
    if (notModified) return reply.code(304).headers(notModified).send();
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
}
