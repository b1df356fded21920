import rateLimit from '@fastify/rate-limit';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  parseSignup,
  signupSuccessMessage,
  type SignupFieldErrors,
  type SignupView,
} from '../../shared/signup-schema.ts';
import { apiPaths } from '../../shared/site-pages.ts';
import { csrfErrorMessage, isCsrfError, type WriteProtection } from '../http/write-protection.ts';
import type { GroupCommitter } from '../store/group-commit.ts';
import type { Store } from '../store/database.ts';
import { countAbuseJob, confirmSubscriber, signupBatch, unsubscribeSubscriber } from './signup-store.ts';
import { verifyUnsubscribeSignature } from './tokens.ts';

export interface SignupRouteDeps {
  store: Store;
  committer: GroupCommitter;
  protection: WriteProtection;
  secret: string;
  publicUrl: string;
  clock: () => Date;
  minFillMs: number;
  ratePerMinute: number;
  /** Called after a sign-up queued an email, so the outbox worker sends it now. */
  onMailQueued: () => void;
  /** Coarse place of a client address (never stored itself), kept with the sign-up. */
  locate: (ip: string) => { country: string; region: string; city: string };
  renderHomeWithSignup: (view: SignupView) => string;
  renderNotice: (title: string, message: string) => string;
}

// JSON in, JSON out (the hydrated form); a urlencoded post (JavaScript off) gets the page back.
const wantsJson = (request: FastifyRequest): boolean =>
  (request.headers['content-type'] ?? '').startsWith('application/json') ||
  (request.headers.accept ?? '').startsWith('application/json');

const asValues = (body: unknown) => {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 2000) : '');
  return { name: str(b.name), email: str(b.email), comment: str(b.comment) };
};

const html = 'text/html; charset=utf-8';

/** The page the form sat on, for the consent record: our own Referer path, else "/". */
function formPage(request: FastifyRequest, publicUrl: string): string {
  try {
    const ref = new URL(request.headers.referer ?? '');
    const own = [new URL(publicUrl).origin, `${request.protocol}://${request.host}`];
    return own.includes(ref.origin) ? ref.pathname.slice(0, 200) : '/';
  } catch {
    return '/';
  }
}

export async function registerSignupRoutes(app: FastifyInstance, deps: SignupRouteDeps): Promise<void> {
  const { store, committer, protection, clock } = deps;

  function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: string,
    errors?: SignupFieldErrors,
  ): FastifyReply {
    if (wantsJson(request)) {
      return reply.code(status).send(status < 300 ? { ok: true, message } : { message, ...(errors ? { errors } : {}) });
    }
    const view: SignupView =
      status < 300
        ? { status: 'success', message }
        : { status: 'error', message, values: asValues(request.body), ...(errors ? { errors } : {}) };
    return reply.code(status).type(html).header('cache-control', 'no-store').send(deps.renderHomeWithSignup(view));
  }

  // Errors raised before the handler (body too big, wrong type, rate limit, CSRF) answer in the
  // same two shapes, in words.
  function signupErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    let message: string;
    if (status === 413) message = 'That was more than this form takes (16 KB at most). Please shorten your comment.';
    else if (status === 415) message = 'Please send the form as a normal web form or as JSON.';
    else if (status === 429) message = error.message;
    else if (isCsrfError(error)) message = csrfErrorMessage;
    else if (status === 403) message = error.message;
    else if (status === 400) message = 'We could not read that form. Please try again.';
    else {
      request.log.error({ err: error }, 'sign-up failed');
      message = 'Something went wrong on our side and your sign-up was not saved. Please try again in a minute.';
    }
    return answer(request, reply, status, message);
  }

  await app.register(rateLimit, { global: false });

  app.post(
    apiPaths.signup,
    {
      config: {
        rateLimit: {
          max: deps.ratePerMinute,
          timeWindow: 60_000,
          errorResponseBuilder: (_req, ctx) => ({
            statusCode: 429,
            message: `Too many sign-ups from your network. Please try again in ${Math.max(1, Math.ceil(ctx.ttl / 1000))} seconds.`,
          }),
        },
      },
      errorHandler: signupErrorHandler,
      preHandler: [
        protection.sameOrigin,
        // The hydrated form sends JSON with the token header; the plain form cannot carry one
        // (static HTML) and relies on the same-origin check above.
        (request, reply, done) => {
          if ((request.headers['content-type'] ?? '').startsWith('application/json')) {
            protection.csrfToken.call(app, request, reply, done);
          } else done();
        },
      ],
    },
    async (request, reply) => {
      const parsed = parseSignup(request.body ?? {});
      if (!parsed.ok) {
        return answer(request, reply, 400, 'Please correct the highlighted fields.', parsed.errors);
      }
      const now = clock();
      // Bots: same answer as a person gets, nothing stored, the catch counted.
      if (parsed.data.website) {
        await committer.run(countAbuseJob('honeypot', now));
        return answer(request, reply, 200, signupSuccessMessage);
      }
      const age = protection.msSincePageLoad(request, now);
      if (age === null && !wantsJson(request)) {
        // JavaScript off and no cookies yet (pages set none): a person has just filled the form,
        // so give the cookies, keep what they typed, and ask for one more press. A bot that
        // keeps no cookies never gets past this. The trap is backdated: they already took time.
        protection.issueVisitorCookies(request, reply, new Date(now.getTime() - deps.minFillMs));
        return answer(request, reply, 428, 'Almost there: please press Submit once more to confirm you are a person.');
      }
      if (age === null || age < deps.minFillMs) {
        await committer.run(countAbuseJob('too-fast', now));
        return answer(request, reply, 200, signupSuccessMessage);
      }
      // Durable before acknowledged: this resolves only after the batch's commit.
      const result = await committer.runIn(signupBatch, {
        input: parsed.data,
        meta: { now, page: formPage(request, deps.publicUrl), location: deps.locate(request.ip) },
      });
      if (result.emailQueued) deps.onMailQueued();
      return answer(request, reply, 200, signupSuccessMessage);
    },
  );

  app.get(apiPaths.csrf, (request, reply) => {
    protection.issueVisitorCookies(request, reply);
    return reply.header('cache-control', 'no-store').code(204).send();
  });

  const notice = (reply: FastifyReply, status: number, title: string, message: string) =>
    reply.code(status).type(html).header('cache-control', 'no-store').send(deps.renderNotice(title, message));

  app.get<{ Querystring: { token?: string } }>(apiPaths.confirm, async (request, reply) => {
    const result = await confirmSubscriber(store.db, String(request.query.token ?? ''), clock());
    switch (result) {
      case 'confirmed':
        return notice(reply, 200, 'You are on the list', 'Your email address is confirmed. You will hear from us the moment the presale opens.');
      case 'already-confirmed':
        return notice(reply, 200, 'Already confirmed', 'This email address was already confirmed. You are on the list.');
      case 'expired':
        return notice(reply, 410, 'This link has expired', 'Confirmation links work for 7 days. Sign up again on the home page and we will send you a new one.');
      case 'invalid':
        return notice(reply, 404, 'This link does not work', 'The link is incomplete or was already used. Sign up again on the home page to get a new one.');
    }
  });

  const unsubscribe = async (request: FastifyRequest<{ Querystring: { id?: string; sig?: string } }>) => {
    const id = String(request.query.id ?? '');
    const sig = String(request.query.sig ?? '');
    if (!id || !sig || !verifyUnsubscribeSignature(deps.secret, id, sig)) return 'invalid' as const;
    await unsubscribeSubscriber(store.db, id, clock());
    // Unknown (e.g. erased) ids count as done: the person is not on the list either way.
    return 'done' as const;
  };

  app.get<{ Querystring: { id?: string; sig?: string } }>(apiPaths.unsubscribe, async (request, reply) => {
    const result = await unsubscribe(request);
    if (result === 'invalid') {
      return notice(reply, 404, 'This link does not work', 'The unsubscribe link is incomplete. Use the full link from one of our emails.');
    }
    return notice(reply, 200, 'You are unsubscribed', 'We will not email you again. If you change your mind, sign up again on the home page.');
  });

  // RFC 8058 one-click: the mail provider POSTs from its own servers, so no Origin or CSRF check:
  // the signed link itself is the authority. Any body (urlencoded or multipart) is accepted unread.
  await app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', (_req, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, {}));
      payload.on('error', done);
    });
    scope.post<{ Querystring: { id?: string; sig?: string } }>(apiPaths.unsubscribe, async (request, reply) => {
      const result = await unsubscribe(request);
      if (result === 'invalid') return reply.code(404).send({ message: 'This unsubscribe link is not valid.' });
      return reply.code(200).send({ ok: true, message: 'Unsubscribed. We will not email you again.' });
    });
  });
}
