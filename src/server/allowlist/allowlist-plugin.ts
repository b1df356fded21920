import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerAllowlistRoutes } from './allowlist-routes.ts';
import type { FastPaths } from '../lib/fast-paths.ts';
import type { HeadersFor } from '../plugins/security-headers.ts';
import type { ContractSignatureCheck } from './signature-check.ts';
import type { SiweSite } from './siwe-message.ts';
import type { WalletMode } from '../../shared/content-schema.ts';

/**
 * The presale allowlist (docs/decisions/0045-wallet-allowlist.md): visitors prove they hold an
 * address by signing a Sign-In with Ethereum message, and join or leave the list.
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
    },
  ) => {
    registerAllowlistRoutes(app, opts);
  },
  {
    name: 'allowlist',
    fastify: '5.x',
    encapsulate: true,
    dependencies: ['dh-store', 'dh-clock', 'dh-write-protection', 'dh-rate-limit', 'dh-geo', 'dh-mail'],
    decorators: { fastify: ['store', 'committer', 'clock', 'protection', 'geo', 'outbox', 'suppressions'] },
  },
);
