import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { apiError, apiErrorSchema, messageReplySchema } from '../../shared/api-error.ts';
import { pagePaths } from '../../shared/paths.ts';
import { confirmQuerySchema, unsubscribeQuerySchema } from '../../shared/signup-schema.ts';
import { confirmSubscriber, unsubscribeSubscriber } from './signup-store.ts';
import { UNSUBSCRIBE_PURPOSE } from './unsubscribe-link.ts';

const html = 'text/html; charset=utf-8';
const noticePage = z.string();

/** The links in our emails: confirm a sign-up, and unsubscribe (from a browser or one-click). */
export async function registerLinkRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const notice = (reply: FastifyReply, status: number, title: string, message: string) =>
    reply.code(status).type(html).header('cache-control', 'no-store').send(app.pages.renderNotice(title, message));
  // A link whose query cannot even be read (say, a parameter given twice) is a broken link.
  const brokenLink = (_error: unknown, _request: unknown, reply: FastifyReply) =>
    notice(reply, 400, 'This link does not work', 'The link is incomplete. Use the full link from one of our emails.');

  api.get(
    pagePaths.confirm,
    { schema: { querystring: confirmQuerySchema, response: { '2xx': noticePage, '4xx': noticePage } }, errorHandler: brokenLink },
    async (request, reply) => {
      const result = await confirmSubscriber(app.store.db, request.query.token ?? '', app.clock());
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
    },
  );

  const unsubscribe = async (query: z.output<typeof unsubscribeQuerySchema>) => {
    const id = query.id ?? '';
    const sig = query.sig ?? '';
    if (!id || !sig || !app.keys.verify(UNSUBSCRIBE_PURPOSE, id, sig)) return 'invalid' as const;
    await unsubscribeSubscriber(app.store.db, id, app.clock());
    // Unknown (e.g. erased) ids count as done: the person is not on the list either way.
    return 'done' as const;
  };

  api.get(
    pagePaths.unsubscribe,
    { schema: { querystring: unsubscribeQuerySchema, response: { '2xx': noticePage, '4xx': noticePage } }, errorHandler: brokenLink },
    async (request, reply) => {
      if ((await unsubscribe(request.query)) === 'invalid') {
        return notice(reply, 404, 'This link does not work', 'The unsubscribe link is incomplete. Use the full link from one of our emails.');
      }
      return notice(reply, 200, 'You are unsubscribed', 'We will not email you again. If you change your mind, sign up again on the home page.');
    },
  );

  // RFC 8058 one-click: the mail provider POSTs from its own servers, so no Origin or CSRF check:
  // the signed link itself is the authority. Any body (urlencoded or multipart) is accepted unread.
  await app.register(async function oneClickUnsubscribe(scope) {
    scope.addContentTypeParser('multipart/form-data', (_req, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, {}));
      payload.on('error', done);
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      pagePaths.unsubscribe,
      { schema: { querystring: unsubscribeQuerySchema, response: { 200: messageReplySchema, '4xx': apiErrorSchema } } },
      async (request, reply) => {
        if ((await unsubscribe(request.query)) === 'invalid') {
          return reply.code(404).send(apiError('not_found', 'This unsubscribe link is not valid.'));
        }
        return reply.code(200).send({ message: 'Unsubscribed. We will not email you again.' });
      },
    );
  });
}
