import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { Notice } from '../../../shared/site-pages.ts';
import { errorBody } from '../../plugins/http-contract.ts';
import { isStoreUnavailable, STORE_RETRY_AFTER_S } from '../../store/store-errors.ts';

const html = 'text/html; charset=utf-8';

/**
 * The replies of the pages the links in our emails open (the sign-up's and the allowlist's wallet
 * link), in `locale`: a notice page, never cached, and the error handler of their routes.
 */
export function linkPageReplies(app: FastifyInstance, locale: Locale) {
  const words = messagesFor(locale).linkPages;
  const pages = app.pages.in(locale);
  const notice = (reply: FastifyReply, status: number, page: Notice) =>
    reply.code(status).type(html).header('cache-control', 'no-store').send(pages.renderNotice(page));
  // A link whose query cannot even be read (say, a parameter given twice) is a broken link. The
  // database out of reach is not the link's fault: the person is asked to come back (and it is logged).
  const brokenLink = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (!isStoreUnavailable(error)) return notice(reply, 400, words.brokenLink);
    const { status, retryAfterS } = errorBody(error, request);
    return notice(
      reply.header('retry-after', String(retryAfterS)),
      status,
      words.storeDown({ seconds: STORE_RETRY_AFTER_S }),
    );
  };
  return { notice, brokenLink };
}
