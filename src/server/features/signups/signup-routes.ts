import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { countryNamesIn } from '../../../shared/countries.ts';
import { isLocale, type Locale } from '../../../shared/locales.ts';
import { apiError, apiErrorSchema } from '../../../shared/api-error.ts';
import { csrfContract } from '../../../shared/csrf-contract.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { isInviteCode } from '../../../shared/referrals.ts';
import {
  formErrorText,
  signupFieldErrors,
  signupFields,
  signupContract,
  type SignupField,
  type SignupFieldErrors,
  type SignupView,
} from '../../../shared/signup-schema.ts';
import { FORM_MEDIA_TYPE, mediaTypeOf } from '../../lib/media-type.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { isOwnOrigin } from '../../lib/own-origin.ts';
import { errorBody } from '../../plugins/http-contract.ts';
import { answerLocale } from '../../plugins/request-locale.ts';
import { STORE_RETRY_AFTER_S } from '../../store/store-errors.ts';
import { countAbuseJob, signupBatchWith } from './signup-store.ts';

export interface SignupRouteOptions {
  publicUrl: string;
  minFillMs: number;
  ratePerMinute: number;
  /**
   * Countries a sign-up may not come from (the content file's restricted countries, when its
   * emailList is 'restricted'); empty: the list is open to every country.
   */
  restrictedCountries: readonly string[];
}

// JSON in, JSON out (the hydrated form); a urlencoded post (JavaScript off) gets the page back.
// Only the language of the answer depends on this; the token rule below does not.
const wantsJson = (request: FastifyRequest): boolean =>
  mediaTypeOf(request) === 'application/json' ||
  (request.headers.accept ?? '').toLowerCase().startsWith('application/json');

/** What was typed, to fill the form again (the body may be anything: it failed validation). */
const asValues = (body: unknown): Record<SignupField, string> => {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 2000) : '');
  return Object.fromEntries(signupFields.map((f) => [f, str(b[f])])) as Record<SignupField, string>;
};

const html = 'text/html; charset=utf-8';

/** The page the form sat on, for the consent record: our own Referer path, else "/". */
function formPage(request: FastifyRequest, publicUrl: string): string {
  try {
    const ref = new URL(request.headers.referer ?? '');
    return isOwnOrigin(ref.origin, request, publicUrl) ? ref.pathname.slice(0, 200) : pagePaths.home;
  } catch {
    return pagePaths.home;
  }
}

/**
 * The language of this request's answer: the one the form says it was filled in (its hidden
 * `locale`, read from the raw body so that a refused message is answered in it too); failing
 * that, the one a program asks for in Accept-Language; else the default.
 */
function localeOf(request: FastifyRequest): Locale {
  const said: unknown = (request.body as { locale?: unknown } | null | undefined)?.locale;
  return isLocale(said) ? said : answerLocale(request, wantsJson(request));
}

/** The invite code the form carried (read from the raw body, so a refused form keeps it too). */
function inviteOf(request: FastifyRequest): string | undefined {
  const said: unknown = (request.body as { invite?: unknown } | null | undefined)?.invite;
  return isInviteCode(said) ? said : undefined;
}

// The form's answers (content/messages/<locale>/signup.ts), in each locale.
const answersIn = (locale: Locale) => messagesFor(locale).signupAnswers;

/** Where the form's own words say more than the general ones (http-contract.ts). */
function formWords(locale: Locale): Record<number, string> {
  const signupAnswers = answersIn(locale);
  return {
    400: signupAnswers.unreadable,
    413: signupAnswers.tooLarge,
    415: signupAnswers.wrongType,
    500: signupAnswers.notSaved,
    503: signupAnswers.storeDown({ seconds: STORE_RETRY_AFTER_S }),
  };
}

// The no-JavaScript answer is the home page itself (a string sent as HTML, never serialised).
const signupPage = z.string();

/** POST /signup (the form, both ways) and GET /api/csrf (its cookies). */
export function registerSignupRoutes(app: FastifyInstance, opts: SignupRouteOptions): void {
  const { protection, committer, clock } = app;
  // One batch kind for the app's life: the group committer batches sign-ups of the same kind.
  const signupBatch = signupBatchWith(app.suppressions);

  /** The answer in the asker's language: JSON for the hydrated form, the page for a plain post. */
  function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: { message: string; code?: Parameters<typeof apiError>[0]; errors?: SignupFieldErrors },
  ): FastifyReply {
    const { message, errors } = body;
    if (wantsJson(request)) {
      return reply
        .code(status)
        .send(status < 300 ? { message } : apiError(body.code ?? 'bad_request', message, errors));
    }
    const view: SignupView =
      status < 300
        ? { status: 'success', message }
        : { status: 'error', message, values: asValues(request.body), ...(errors ? { errors } : {}) };
    return reply
      .code(status)
      .type(html)
      .header('cache-control', 'no-store')
      .send(app.pages.in(localeOf(request)).renderHomeWithSignup(view, inviteOf(request)));
  }

  // Errors raised before the handler (validation, body too big, wrong type, rate limit, CSRF)
  // answer in the same two languages, in words.
  function signupErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = signupFieldErrors(
        error.validation.map((v) => ({
          path: v.instancePath.split('/').filter(Boolean),
          code: v.keyword,
          message: v.message ?? '',
          keys: Array.isArray(v.params.keys) ? (v.params.keys as string[]) : [],
        })),
      );
      const locale = localeOf(request);
      const signupWords = messagesFor(locale).signup;
      const signupAnswers = answersIn(locale);
      // A fault in the message as a whole has no field to sit beside: it follows the notice.
      const message = errors.form
        ? `${signupWords.invalid} ${formErrorText(signupAnswers, signupWords, errors.form, locale)}`
        : signupWords.invalid;
      return answer(request, reply, 400, { code: 'invalid_fields', message, errors });
    }
    const { status, body, retryAfterS } = errorBody(error, request);
    if (retryAfterS !== undefined) reply.header('retry-after', String(retryAfterS));
    return answer(request, reply, status, {
      code: body.error.code,
      message: formWords(localeOf(request))[status] ?? body.error.message,
    });
  }

  app.withTypeProvider<ZodTypeProvider>().post(
    signupContract.path,
    {
      schema: {
        body: signupContract.body,
        response: {
          200: z.union([signupContract.reply, signupPage]),
          '4xx': z.union([apiErrorSchema, signupPage]),
          '5xx': z.union([apiErrorSchema, signupPage]),
        },
      },
      config: {
        rateLimit: {
          max: opts.ratePerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: (req, ctx) => ({
            statusCode: 429,
            message: answersIn(localeOf(req)).tooMany({ seconds: Math.max(1, Math.ceil(ctx.ttl / 1000)) }),
          }),
        },
      },
      errorHandler: signupErrorHandler,
      // Before validation: a request from another site is refused whatever its body holds.
      preValidation: [
        protection.sameOrigin,
        // The hydrated form sends JSON with the token header; the plain form cannot carry one
        // (static HTML) and relies on the same-origin check above. So the one exemption is the
        // plain form's own media type, parsed (never matched as text): every other body, however
        // its Content-Type is spelt, must carry the token.
        (request, reply, done) => {
          if (mediaTypeOf(request) === FORM_MEDIA_TYPE) done();
          else protection.csrfToken.call(app, request, reply, done);
        },
      ],
    },
    async (request, reply) => {
      const input = request.body;
      const now = clock();
      const locale = input.locale ?? localeOf(request);
      const signupAnswers = answersIn(locale);
      // Bots: same answer as a person gets, nothing stored, the catch counted.
      if (input.website) {
        await committer.run(countAbuseJob('honeypot', now));
        app.metrics.signups.trapped('honeypot');
        return answer(request, reply, 200, { message: signupAnswers.success });
      }
      const age = protection.msSincePageLoad(request, now);
      if (age === null && !wantsJson(request)) {
        // JavaScript off and no cookies yet (pages set none): a person has just filled the form,
        // so give the cookies, keep what they typed, and ask for one more press. A bot that
        // keeps no cookies never gets past this. The trap is backdated: they already took time.
        protection.issueVisitorCookies(request, reply, new Date(now.getTime() - opts.minFillMs));
        return answer(request, reply, 428, {
          code: 'precondition_required',
          message: signupAnswers.oneMorePress,
        });
      }
      if (age === null || age < opts.minFillMs) {
        await committer.run(countAbuseJob('too-fast', now));
        app.metrics.signups.trapped('too-fast');
        return answer(request, reply, 200, { message: signupAnswers.success });
      }
      const place = app.geo.lookupLocal(request.ip);
      // The lookup is a friction, not a proof (docs/decisions/0068-who-may-join.md): refused in
      // words before anything typed is stored.
      if (opts.restrictedCountries.includes(place.country)) {
        const [country = place.country] = countryNamesIn(localeInfo[locale].tag, [place.country]);
        return answer(request, reply, 403, {
          code: 'forbidden',
          message: signupAnswers.restrictedCountry({ country }),
        });
      }
      // Durable before acknowledged: this resolves only after the batch's commit.
      const result = await committer.runIn(signupBatch, {
        input,
        meta: {
          now,
          page: formPage(request, opts.publicUrl),
          // The language they signed up in: their emails and link pages are written in it.
          locale,
          location: { country: place.country, region: place.region, city: place.city },
        },
      });
      // Who invited them, if they came through an invite link (the referrals feature decides
      // whether the code means anything; a sign-up never fails for it). Only the sign-up that
      // made the person's row carries an invite: a later one with their address is not theirs.
      await app.referrals.attribute(request, {
        invite: input.invite,
        email: input.email,
        subscriberId: result.subscriberId,
        created: result.outcome === 'created',
      });
      if (result.emailQueued) app.outbox.nudge();
      app.metrics.signups.accepted(result.outcome);
      return answer(request, reply, 200, { message: signupAnswers.success });
    },
  );

  registerContract(app, csrfContract, {}, async (request, reply) => {
    protection.issueVisitorCookies(request, reply);
    return reply.header('cache-control', 'no-store').code(204).send();
  });
}
