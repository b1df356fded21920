import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerAllowlistRoutes } from './allowlist-routes.ts';
import type { FastPaths } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import type { ContractSignatureCheck } from './signature-check.ts';
import type { SiweSite } from './siwe-message.ts';
import type { SiteContent, WalletMode } from '../../../shared/content-schema.ts';
import { linkComposerOptions } from '../signups/index.ts';
import { walletLinkComposer } from './wallet-link-composer.ts';
import { registerWalletLinkRoutes } from './wallet-link-routes.ts';
import { WALLET_LINK_KIND } from './wallet-link-store.ts';

/**
 * The presale allowlist (docs/decisions/0045-wallet-allowlist.md): visitors prove they hold an
 * address by signing a Sign-In with Ethereum message, and join or leave the list; a wallet's
 * holder may link an email, which counts once the email's owner confirms it from an email naming
 * the wallet (the outbox kind it registers, and the page that email's link opens).
 */
export const allowlistFeature = fp(
  async (
    app: FastifyInstance,
    opts: {
      mode: WalletMode;
      site: SiweSite;
      ratePerMinute: number;
      minFillMs: number;
      contractCheck: ContractSignatureCheck | null;
      fastPaths: FastPaths;
      headersFor: HeadersFor;
      content: SiteContent;
      publicUrl: string;
    },
  ) => {
    app.outbox.registerKind(WALLET_LINK_KIND, walletLinkComposer(linkComposerOptions(app, opts)));
    registerAllowlistRoutes(app, { ...opts, declaration: opts.content.presaleTerms });
    await registerWalletLinkRoutes(app);
  },
  {
    name: 'allowlist',
    fastify: '5.x',
    encapsulate: true,
    dependencies: [
      'dh-store',
      'dh-clock',
      'dh-keys',
      'dh-pages',
      'dh-write-protection',
      'dh-rate-limit',
      'dh-geo',
      'dh-mail',
    ],
    decorators: {
      fastify: ['store', 'committer', 'clock', 'keys', 'pages', 'protection', 'geo', 'outbox', 'suppressions'],
    },
  },
);
