import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales, type Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { confirmFormSchema, confirmQuerySchema } from '../../../shared/signup-schema.ts';
import { linkPageReplies } from '../signups/index.ts';
import { groupedAddress } from './short-address.ts';
import { confirmWalletLink, inspectWalletLink } from './wallet-link-store.ts';

const noticePage = z.string();

// The page the link in a wallet-link email opens, as the sign-up's link pages do (signups/
// link-routes.ts, docs/decisions/0011): opening it (GET or HEAD: the person, or a mail scanner)
// names the wallet, says what linking means, and shows one button; only the press, a plain form
// POST that works without JavaScript, links. The token from the email is the authority for the
// POST (256 random bits, single use, 7 days), so, like /confirm, it needs no same-origin check or
// CSRF token: a forged request would have to carry the secret from the person's own email.
// At every locale's address; the email links to the person's own.

export async function registerWalletLinkRoutes(app: FastifyInstance): Promise<void> {
  for (const locale of locales) registerIn(app, locale);
}

function registerIn(app: FastifyInstance, locale: Locale): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const words = messagesFor(locale).walletLink.page;
  const here = localePath(locale, pagePaths.walletLink);
  const { notice, brokenLink } = linkPageReplies(app, locale);

  api.get(
    here,
    {
      schema: { querystring: confirmQuerySchema, response: { '2xx': noticePage, '4xx': noticePage } },
      errorHandler: brokenLink,
    },
    async (request, reply) => {
      const token = request.query.token ?? '';
      const link = await inspectWalletLink(app.store.db, token, app.clock());
      switch (link.state) {
        case 'pending': {
          // The whole address, where the person decides (never the short form a look-alike can match).
          const { title, message, button } = words.pending;
          const wallet = groupedAddress(link.address);
          return notice(reply, 200, {
            title,
            message,
            wallet,
            action: { label: button, href: here, fields: { token } },
          });
        }
        case 'expired':
          return notice(reply, 410, words.expired);
        case 'invalid':
          return notice(reply, 404, words.usedLink);
      }
    },
  );

  api.post(
    here,
    {
      schema: { body: confirmFormSchema, response: { '2xx': noticePage, '4xx': noticePage } },
      errorHandler: brokenLink,
    },
    async (request, reply) => {
      const result = await confirmWalletLink(app.store.db, request.body.token ?? '', app.clock());
      switch (result.outcome) {
        case 'linked':
          return notice(reply, 200, { ...words.linked, wallet: groupedAddress(result.address) });
        case 'expired':
          return notice(reply, 410, words.expired);
        case 'invalid':
          return notice(reply, 404, words.usedLink);
      }
    },
  );
}
