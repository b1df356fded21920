import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { contentIn, type SiteContent } from '../../../shared/content-schema.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { InviteView } from '../../../shared/referrals.ts';
import { clientNetwork, inviteNetwork } from '../../lib/client-network.ts';
import { errorText } from '../../lib/log-safe.ts';
import { intervalJob } from '../../plugins/jobs.ts';
import type { Database } from '../../store/schema.ts';
import { invitePageUrl, inviteUrl, shareLinks } from './invite-links.ts';
import { registerInviteRoutes } from './invite-routes.ts';
import {
  attributeSignup,
  confirmedInvites,
  decideOnConfirm,
  ensureInviteCode,
  inviteCodeOf,
  purgeNetworkDays,
} from './referral-store.ts';
import { mailboxOf } from './mailbox.ts';
import type { ReferralCaps } from './referrals-config.ts';

/** What the sign-up feature asks of invites, at the two moments that matter to them. */
export interface Referrals {
  /**
   * A sign-up came with `invite` (any text): notes who invited whom, or ignores it. Never fails
   * the sign-up: a fault is logged (without the address) and the sign-up stands.
   */
  attribute(
    request: FastifyRequest,
    signup: { invite?: string | undefined; email: string; subscriberId: string; created: boolean },
  ): Promise<void>;
  /**
   * The person pressed their confirmation link (inside its transaction, `db`): decides whether
   * their invite counts, and makes their own invite code.
   */
  onConfirmed(db: Kysely<Database>, request: FastifyRequest, subscriberId: string): Promise<void>;
  /** What the confirmed page and the invite page show; null when the person has no code. */
  inviteView(subscriberId: string, locale: Locale, withPageLink?: boolean): Promise<InviteView | null>;
  /** The limits in force (the console's Referrals view states them). */
  readonly caps: ReferralCaps;
}

declare module 'fastify' {
  interface FastifyInstance {
    referrals: Referrals;
  }
}

// The keyed hash of a client's network (lib/client-network.ts's inviteNetwork: an IPv4 address or
// an IPv6 /48, keyed by the link keys), under a purpose of its own. Never the address.
const NETWORK_PURPOSE = 'referral-network';
// The keyed hash of the mailbox an invited address reaches, to compare a referrer's invitees with
// each other without keeping a second spelling of anyone's address (docs/decisions/0063).
const MAILBOX_PURPOSE = 'referral-mailbox';
const HOUR = 60 * 60 * 1000;

export interface ReferralsOptions {
  caps: ReferralCaps;
  publicUrl: string;
  content: SiteContent;
}

/** Invite links: codes, who came through whose, the counting decision, the invite page. */
export const referralsFeature = fp(
  async (app: FastifyInstance, opts: ReferralsOptions) => {
    const networkKey = (request: FastifyRequest) => app.keys.sign(NETWORK_PURPOSE, inviteNetwork(request.ip));
    const mailboxKey = (email: string) => app.keys.sign(MAILBOX_PURPOSE, mailboxOf(email));

    async function inviteView(subscriberId: string, locale: Locale, withPageLink = false): Promise<InviteView | null> {
      const code = await inviteCodeOf(app.store.db, subscriberId);
      if (code === null) return null;
      const words = messagesFor(locale).referrals;
      const url = inviteUrl(opts.publicUrl, code, locale);
      const reward = contentIn(opts.content, locale).referrals?.reward;
      return {
        url,
        count: await confirmedInvites(app.store.db, subscriberId),
        share: shareLinks(url, words),
        ...(reward === undefined ? {} : { reward }),
        ...(withPageLink ? { pageUrl: invitePageUrl(opts.publicUrl, app.keys, subscriberId, locale) } : {}),
      };
    }

    const referrals: Referrals = {
      async attribute(request, signup) {
        if (signup.invite === undefined || signup.invite === '') return;
        try {
          await attributeSignup(app.store.db, {
            code: signup.invite,
            invitedId: signup.subscriberId,
            invitedEmail: signup.email,
            networkKey: networkKey(request),
            now: app.clock(),
            created: signup.created,
          });
        } catch (error) {
          request.log.warn({ err: error }, 'invite not attributed');
        }
      },
      async onConfirmed(db, request, subscriberId) {
        const now = app.clock();
        await decideOnConfirm(db, {
          invitedId: subscriberId,
          // Codes made before invites grouped IPv6 by /48 keep a /64's key: the confirmation's /64
          // is compared with them too, so a referrer's own network is still found.
          networkKeys: [networkKey(request), app.keys.sign(NETWORK_PURPOSE, clientNetwork(request.ip))],
          mailboxKey,
          now,
          caps: opts.caps,
        });
        await ensureInviteCode(db, subscriberId, networkKey(request), now);
      },
      inviteView,
      caps: opts.caps,
    };
    app.decorate('referrals', referrals);
    app.jobs.add(
      intervalJob(
        'referral-days-purge',
        HOUR,
        () => purgeNetworkDays(app.store.db, app.clock()),
        (error) => app.log.warn({ err: errorText(error) }, 'referral network days not purged'),
      ),
    );
    await registerInviteRoutes(app, { networkKey });
  },
  {
    name: 'referrals',
    fastify: '5.x',
    dependencies: ['dh-store', 'dh-keys', 'dh-pages', 'dh-clock', 'dh-jobs'],
    decorators: { fastify: ['store', 'keys', 'pages', 'clock', 'jobs'] },
  },
);
