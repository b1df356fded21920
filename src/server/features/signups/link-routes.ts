import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales, type Locale } from '../../../shared/locales.ts';
import { apiErrorSchema, messageReplySchema } from '../../../shared/api-error.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { notFound } from '../../lib/not-found.ts';
import { confirmFormSchema, confirmQuerySchema, unsubscribeQuerySchema } from '../../../shared/signup-schema.ts';
import type { Notice } from '../../../shared/site-pages.ts';
import {
  confirmSubscriber,
  inspectConfirmLink,
  subscriberStatus,
  unsubscribeSubscriber,
  type ConfirmResult,
} from './link-store.ts';
import { UNSUBSCRIBE_PURPOSE } from './unsubscribe-link.ts';
import { linkPageReplies } from './link-pages.ts';

const noticePage = z.string();

// The pages the links in our emails open. Opening one (GET or HEAD: a person, or a mail
// scanner such as Outlook Safe Links that opens every link in a message) only shows what the link
// is about and one button; only the press, a POST, acts. A scanner may open a link any number of
// times and the person's press still works. The token or signature in the link is the authority
// for the POST, so these POSTs need no same-origin check or CSRF token: a forged request would
// have to carry the secret from the person's own email already (docs/decisions/0011).

// The words are the link pages' messages (content/messages/<locale>/link-pages.ts). Each page is
// at every locale's address (`/es/confirm`), and our emails link to the subscriber's own, so a
// person reads the page, its button and what pressing it did in the language they signed up in.

const confirmResultNotice = (words: LinkPageWords): Record<ConfirmResult, [number, Notice]> => ({
  confirmed: [200, words.confirmed],
  'already-confirmed': [200, words.alreadyConfirmed],
  expired: [410, words.expired],
  invalid: [404, words.usedLink],
});

type LinkPageWords = ReturnType<typeof messagesFor>['linkPages'];

/** The form's press is a browser navigation (it asks for HTML); a mail provider's one-click is not. */
const wantsPage = (request: FastifyRequest): boolean => /text\/html/i.test(request.headers.accept ?? '');

/** The links in our emails: confirm a sign-up, and unsubscribe (from its page or one-click). */
export async function registerLinkRoutes(app: FastifyInstance): Promise<void> {
  for (const locale of locales) await registerIn(app, locale);
}

async function registerIn(app: FastifyInstance, locale: Locale): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const words = messagesFor(locale).linkPages;
  const here = (path: string) => localePath(locale, path);
  const { notice, brokenLink } = linkPageReplies(app, locale);

  api.get(
    here(pagePaths.confirm),
    {
      schema: { querystring: confirmQuerySchema, response: { '2xx': noticePage, '4xx': noticePage } },
      errorHandler: brokenLink,
    },
    async (request, reply) => {
      const token = request.query.token ?? '';
      switch (await inspectConfirmLink(app.store.db, token, app.clock())) {
        case 'pending': {
          const { title, message, button } = words.confirmPending;
          return notice(reply, 200, {
            title,
            message,
            action: { label: button, href: here(pagePaths.confirm), fields: { token } },
          });
        }
        case 'already-confirmed':
          return notice(reply, 200, words.alreadyConfirmed);
        case 'expired':
          return notice(reply, 410, words.expired);
        case 'invalid':
          return notice(reply, 404, words.usedLink);
      }
    },
  );

  api.post(
    here(pagePaths.confirm),
    {
      schema: { body: confirmFormSchema, response: { '2xx': noticePage, '4xx': noticePage } },
      errorHandler: brokenLink,
    },
    async (request, reply) => {
      let confirmedId: string | undefined;
      const result = await confirmSubscriber(app.store.db, request.body.token ?? '', app.clock(), (trx, id) => {
        confirmedId = id;
        return app.referrals.onConfirmed(trx, request, id);
      });
      const [status, page] = confirmResultNotice(words)[result];
      // A confirmed person sees their invite link, how to share it and their invite page's link.
      const invite = confirmedId === undefined ? null : await app.referrals.inviteView(confirmedId, locale, true);
      return notice(reply, status, invite === null ? page : { ...page, invite });
    },
  );

  /** The subscriber a signed unsubscribe link names, or null when the signature does not hold. */
  const signedId = (query: z.output<typeof unsubscribeQuerySchema>): string | null => {
    const id = query.id ?? '';
    const sig = query.sig ?? '';
    return id && sig && app.keys.verify(UNSUBSCRIBE_PURPOSE, id, sig) ? id : null;
  };

  api.get(
    here(pagePaths.unsubscribe),
    {
      schema: { querystring: unsubscribeQuerySchema, response: { '2xx': noticePage, '4xx': noticePage } },
      errorHandler: brokenLink,
    },
    async (request, reply) => {
      const id = signedId(request.query);
      if (!id) {
        return notice(reply, 404, words.unsubscribeBroken);
      }
      const status = await subscriberStatus(app.store.db, id);
      // Unknown (e.g. erased) ids count as done: the person is not on the list either way.
      if (status === null || status === 'unsubscribed') return notice(reply, 200, words.unsubscribed);
      const query = new URLSearchParams({ id, sig: request.query.sig ?? '' });
      const { title, message, button } = words.unsubscribePending;
      return notice(reply, 200, {
        title,
        message,
        action: { label: button, href: `${here(pagePaths.unsubscribe)}?${query.toString()}` },
      });
    },
  );

  // The press on that page, and the RFC 8058 one-click POST a mail provider sends from its own
  // servers (no Origin, no cookies, a urlencoded or multipart body we do not need to read). Both
  // post to the link's own address; the signed link is the authority.
  await app.register(async function oneClickUnsubscribe(scope) {
    // Read (and dropped) within the body limit: Fastify counts the bytes of a `parseAs` body and
    // stops at the limit with 413, where a stream drained by hand would read whatever is sent.
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: scope.initialConfig.bodyLimit },
      (_req, _body, done) => done(null, {}),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      here(pagePaths.unsubscribe),
      {
        schema: {
          querystring: unsubscribeQuerySchema,
          response: { 200: z.union([messageReplySchema, noticePage]), '4xx': z.union([apiErrorSchema, noticePage]) },
        },
      },
      async (request, reply) => {
        const id = signedId(request.query);
        if (!id) {
          if (wantsPage(request)) return notice(reply, 404, words.brokenLink);
          return notFound(reply, words.oneClickInvalid);
        }
        await unsubscribeSubscriber(app.store.db, id, app.clock());
        if (wantsPage(request)) return notice(reply, 200, words.unsubscribed);
        return reply.code(200).send({ message: words.oneClickDone });
      },
    );
  });
}
