import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorText } from '../../lib/log-safe.ts';
import { fileMailer, smtpMailer, type Mailer } from './mailer.ts';
import type { DkimSigning } from './dkim.ts';
import type { Composer, Outbox } from './outbox.ts';
import { provideMailMetrics } from './mail-metrics.ts';
import { outboxBacklog } from './outbox-backlog.ts';
import { withBounceHeaders } from './bounce-headers.ts';
import { OutboxWorker } from './outbox-worker.ts';
import { VisitorFirstPace } from './visitor-first-pace.ts';
import { SharedOrLocalPace } from './broadcast-pace.ts';
import { Suppressions } from './suppression.ts';
import { BounceIntake } from './bounces.ts';
import { domainOf, Verp } from './verp.ts';
import { webhookRoutes, type WebhookOptions } from './webhook-routes.ts';
import { bounceMailboxJob } from './bounce-mailbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    /** The suppression list (suppression.ts): addresses never mailed again. */
    suppressions: Suppressions;
    /** Where bounces and complaints are handed in (bounces.ts). */
    bounces: BounceIntake;
  }
}

export interface MailOptions {
  /** Injected by tests; otherwise SMTP_URL, or .eml files under OUTBOX_DIR when that is unset. */
  mailer?: Mailer;
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  /** MAIL_RATE_PER_SEC: the pace of broadcast rows, for the whole site when Redis is there. */
  broadcastRatePerSec?: number;
  /** MAIL_CONCURRENCY: emails in their SMTP exchange at once (and pooled connections). */
  concurrency?: number;
  /** BOUNCE_DOMAIN: the domain of the VERP envelope senders; unset, the domain of `from`. */
  bounceDomain?: string | undefined;
  /** Providers' bounce webhooks, each unset: its route answers 404 (webhook-routes.ts). */
  webhooks?: Omit<WebhookOptions, 'suppressions'>;
  /** BOUNCE_IMAP_URL: the mailbox the VERP addresses deliver to, watched with IDLE; unset: not read. */
  bounceImapUrl?: string | undefined;
  /** BOUNCE_IMAP_POLL_SECONDS, in ms: the poll beside IMAP IDLE (a fallback); default 5 minutes. */
  bounceImapPollMs?: number | undefined;
  /** DKIM_PRIVATE_KEY, DKIM_SELECTOR, DKIM_DOMAIN (dkim.ts): SMTP mail is signed; unset: not. */
  dkim?: DkimSigning | undefined;
}

/**
 * Mail: the transport, the outbox's kinds, and the worker that sends the outbox (a background
 * job). Features register the composer of each kind of email they own.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance, opts: MailOptions) => {
    const mailer =
      opts.mailer ??
      (opts.smtpUrl
        ? smtpMailer(opts.smtpUrl, opts.from, opts.concurrency, opts.dkim)
        : fileMailer(opts.outboxDir, opts.from, (m) => app.log.info(m)));
    provideMailMetrics(app.metrics);
    const kinds = new Map<string, Composer>();
    const broadcastListeners: ((broadcastId: string) => void)[] = [];
    const suppressions = new Suppressions(app.keys.secrets);
    const bounceDomain = opts.bounceDomain ?? domainOf(opts.from);
    if (!bounceDomain)
      throw new Error('MAIL_FROM must be an address with a domain (or set BOUNCE_DOMAIN): bounces come back to it.');
    const verp = new Verp(app.keys.secrets, bounceDomain);
    const bounces = new BounceIntake(app.store.db, suppressions, verp, (msg, fields) => app.log.warn(fields, msg));
    const worker = new OutboxWorker({
      suppressions,
      verp,
      db: app.store.db,
      dialect: app.store.dialect,
      mailer,
      kinds,
      clock: app.clock,
      // The sign-ups' committer: one writer, one commit for a burst's writes (on PostgreSQL a
      // second committer for the mail made a viral hour's p99 worse, not better: decision 0061).
      committer: app.committer,
      // Visitors first: during a burst the confirmations are spaced, not the sign-ups (decision 0051).
      visitorPace: new VisitorFirstPace(),
      ...(opts.broadcastRatePerSec ? { broadcastRatePerSec: opts.broadcastRatePerSec } : {}),
      // The provider's limit is the site's, not each instance's: shared in Redis when configured.
      ...(opts.broadcastRatePerSec && app.redis
        ? { pace: new SharedOrLocalPace(app.redis, opts.broadcastRatePerSec) }
        : {}),
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      onError: (error, row) => {
        if (row) app.metrics.mail.failed(row.kind);
        app.log.warn(
          { err: errorText(error), ...(row ? { outboxId: row.id } : {}) },
          row ? 'mail not sent; will retry' : 'outbox not readable; will retry',
        );
      },
      onSent: (row) => {
        app.metrics.mail.sent(row.kind);
        if (row.broadcast_id) for (const listener of broadcastListeners) listener(row.broadcast_id);
      },
    });
    app.metrics.outbox.measureWith(() => outboxBacklog(app.store.db));

    app.decorate('mailer', mailer);
    app.decorate('suppressions', suppressions);
    app.decorate('bounces', bounces);
    await app.register(webhookRoutes, { ...opts.webhooks, suppressions });
    const imapUrl = opts.bounceImapUrl;
    if (imapUrl) {
      // IMAP IDLE wakes it as a bounce arrives; the poll is the fallback (bounce-mailbox.ts).
      app.jobs.add(
        bounceMailboxJob({
          url: imapUrl,
          intake: bounces,
          now: app.clock,
          log: (msg, fields) => app.log.info(fields, msg),
          pollMs: opts.bounceImapPollMs ?? 300_000,
          // The error only: the URL holds the mailbox's password.
          onError: (error) => app.log.warn({ err: errorText(error) }, 'bounce mailbox not read; will retry'),
        }),
      );
    }
    app.decorate('outbox', {
      registerKind(kind, composer) {
        if (kinds.has(kind)) throw new Error(`The outbox kind ${kind} is registered already.`);
        kinds.set(kind, composer);
      },
      nudge: (what) => worker.nudge(what),
      onBroadcastRowSent: (listener) => broadcastListeners.push(listener),
      // A fresh id, never an outbox row's: a bounce of it is "never sent" to BounceIntake.
      sendNow: (message, as) =>
        mailer.send(
          withBounceHeaders(message, { id: randomUUID(), kind: as.kind, broadcast_id: as.broadcastId }, verp),
        ),
    } satisfies Outbox);

    app.jobs.add({
      name: 'outbox',
      start: () => worker.start(),
      stop: () => worker.stop(),
      runOnce: async () => {
        while ((await worker.runOnce()) > 0);
      },
    });
    // After the worker has let go of its last send (its stop is idempotent).
    app.addHook('onClose', async () => {
      await worker.stop();
      mailer.close();
    });
  },
  {
    name: 'dh-mail',
    fastify: '5.x',
    dependencies: ['dh-store', 'dh-clock', 'dh-keys', 'dh-redis', 'dh-jobs', 'dh-metrics'],
    decorators: { fastify: ['store', 'committer', 'clock', 'keys', 'redis', 'jobs', 'metrics'] },
  },
);
