import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales, type Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { isStoreUnavailable } from '../../store/store-errors.ts';
import { linkPageReplies } from '../signups/index.ts';
import { INVITE_PAGE_PURPOSE, invitePageQuery } from './invite-links.ts';
import { ensureInviteCode } from './referral-store.ts';

// A person's own invite page, by the signed link in their emails (`/invite?id=…&sig=…`, at every
// locale's address). Opening it (GET, HEAD, a mail scanner) shows the link and the count and
// changes nothing; a person confirmed before invite links existed gets a button, and only that
// press (a POST to the same signed address) makes their code. Counts only, never who.

const invitePageQuerySchema = z.object({ id: z.optional(z.string()), sig: z.optional(z.string()) });
const page = z.string();

export async function registerInviteRoutes(
  app: FastifyInstance,
  deps: { networkKey: (request: FastifyRequest) => string },
): Promise<void> {
  for (const locale of locales) registerIn(app, locale, deps);
}

function registerIn(app: FastifyInstance, locale: Locale, deps: { networkKey: (request: FastifyRequest) => string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const words = messagesFor(locale).referrals;
  const here = localePath(locale, pagePaths.invite);
  // The link pages' replies (a notice page, never cached; the database out of reach asks the
  // person to come back); a query that cannot be read is this page's broken link.
  const replies = linkPageReplies(app, locale);
  const { notice } = replies;
  const brokenLink = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    isStoreUnavailable(error) ? replies.brokenLink(error, request, reply) : notice(reply, 400, words.brokenLink);
  /** The person the signed link names, or null when the signature does not hold. */
  const signedId = (query: z.output<typeof invitePageQuerySchema>): string | null => {
    const id = query.id ?? '';
    const sig = query.sig ?? '';
    return id && sig && app.keys.verify(INVITE_PAGE_PURPOSE, id, sig) ? id : null;
  };
  const statusOf = async (id: string) =>
    (await app.store.db.selectFrom('subscribers').select('status').where('id', '=', id).executeTakeFirst())?.status;

  /** The page for a signed id: the person's invite, or why there is none. */
  async function show(reply: FastifyReply, id: string): Promise<FastifyReply> {
    const status = await statusOf(id);
    // Erased (or never was): a link that was good once names no one now.
    if (status === undefined) return notice(reply, 404, words.brokenLink);
    if (status !== 'confirmed') return notice(reply, 200, words.notConfirmed);
    const invite = await app.referrals.inviteView(id, locale);
    if (invite === null) {
      const { title, message, button } = words.makeLink;
      return notice(reply, 200, {
        title,
        message,
        action: { label: button, href: `${here}?${invitePageQuery(app.keys, id)}` },
      });
    }
    return notice(reply, 200, { ...words.page, invite });
  }

  const schema = { querystring: invitePageQuerySchema, response: { '2xx': page, '4xx': page, '5xx': page } };
  api.get(here, { schema, errorHandler: brokenLink }, async (request, reply) => {
    const id = signedId(request.query);
    return id === null ? notice(reply, 404, words.brokenLink) : show(reply, id);
  });

  // The press of "make my invite link": the signed link is the authority, as for unsubscribing.
  api.post(here, { schema, errorHandler: brokenLink }, async (request, reply) => {
    const id = signedId(request.query);
    if (id === null) return notice(reply, 404, words.brokenLink);
    if ((await statusOf(id)) === 'confirmed')
      await ensureInviteCode(app.store.db, id, deps.networkKey(request), app.clock());
    return show(reply, id);
  });
}
