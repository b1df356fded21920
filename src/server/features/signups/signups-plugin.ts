import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SiteContent } from '../../../shared/content-schema.ts';
import { confirmationComposer } from './confirmation-composer.ts';
import { linkComposerOptions } from './link-email.ts';
import { registerLinkRoutes } from './link-routes.ts';
import { provideSignupMetrics } from './signup-metrics.ts';
import { registerSignupRoutes, type SignupRouteOptions } from './signup-routes.ts';
import { CONFIRMATION_KIND, recordConsentWording } from './signup-store.ts';

/**
 * The "Stay Updated" list: the form (both ways), its cookies, the links in its emails, and the
 * confirmation email, which it registers as a kind of the outbox.
 */
export const signupsFeature = fp(
  async (app: FastifyInstance, opts: Omit<SignupRouteOptions, 'restrictedCountries'> & { content: SiteContent }) => {
    provideSignupMetrics(app.metrics);
    // Sign-ups reference the wording they agreed to, so it is on record before the first one.
    await recordConsentWording(app.store.db, app.clock());
    app.outbox.registerKind(CONFIRMATION_KIND, confirmationComposer(linkComposerOptions(app, opts)));
    const { emailList, restrictedCountries } = opts.content.presaleTerms;
    registerSignupRoutes(app, { ...opts, restrictedCountries: emailList === 'restricted' ? restrictedCountries : [] });
    await registerLinkRoutes(app);
  },
  {
    name: 'signups',
    fastify: '5.x',
    encapsulate: true,
    dependencies: [
      'dh-store',
      'dh-keys',
      'dh-pages',
      'dh-write-protection',
      'dh-rate-limit',
      'dh-geo',
      'dh-mail',
      'dh-metrics',
      'referrals',
    ],
    decorators: {
      fastify: [
        'store',
        'committer',
        'clock',
        'keys',
        'pages',
        'protection',
        'geo',
        'outbox',
        'suppressions',
        'metrics',
        'referrals',
      ],
    },
  },
);
