import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema } from '../../shared/api-error.ts';
import { webhookReplySchema } from '../../shared/mail-webhooks.ts';
import { apiPaths } from '../../shared/paths.ts';
import type { Suppressions } from './suppression.ts';
import { sesEvents, type SnsVerifier } from './sns.ts';
import {
  checkMailgunSignature,
  checkPostmarkAuth,
  checkSendgridSignature,
  ForgedWebhook,
  MalformedWebhook,
  mailgunEvents,
  postmarkEvents,
  sendgridEvents,
  type ProviderEvent,
} from './webhooks.ts';

// The providers' bounce and complaint webhooks (docs/decisions/0035). Each is refused unless the
// provider's own proof holds, refused when the same signed request comes again, and idempotent:
// an event heard twice counts once (bounce_events). A provider not configured answers 404.

export interface WebhookOptions {
  suppressions: Suppressions;
  postmark?: { user: string; password: string } | undefined;
  mailgunSigningKey?: string | undefined;
  sendgridKey?: KeyObject | undefined;
  /** Amazon SES through SNS: the configured topic's verifier. */
  ses?: SnsVerifier | undefined;
}

/** How long a nonce is kept: far past the freshness window, after which a replay is refused as stale. */
const NONCE_KEEP_MS = 24 * 60 * 60_000;

type Replayed = 'replayed';
type Checked = { nonce: string | null; events: ProviderEvent[] };

export async function webhookRoutes(app: FastifyInstance, opts: WebhookOptions): Promise<void> {
  // The raw text, as sent: SendGrid signs the exact bytes, and SNS posts JSON as text/plain.
  for (const type of ['application/json', 'text/plain']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
  }

  const parse = (raw: unknown): unknown => {
    try {
      return JSON.parse(typeof raw === 'string' ? raw : '');
    } catch {
      throw new MalformedWebhook('The body is not JSON.');
    }
  };

  /** Stores the delivery's nonce and its events in one transaction; the nonce seen before: a replay. */
  const take = (provider: string, nonce: string | null, events: ProviderEvent[]): Promise<number | Replayed> => {
    const now = app.clock();
    return app.store.db.transaction().execute(async (trx) => {
      if (nonce) {
        const fresh = await trx
          .insertInto('webhook_nonces')
          .values({ provider, nonce, received_at: now.toISOString() })
          .onConflict((oc) => oc.columns(['provider', 'nonce']).doNothing())
          .returning('nonce')
          .executeTakeFirst();
        if (!fresh) return 'replayed';
        await trx
          .deleteFrom('webhook_nonces')
          .where('provider', '=', provider)
          .where('received_at', '<', new Date(now.getTime() - NONCE_KEEP_MS).toISOString())
          .execute();
      }
      let counted = 0;
      for (const e of events) {
        const outcome = await opts.suppressions.record(trx, { ...e, source: provider, now });
        if (outcome !== 'duplicate') counted++;
      }
      return counted;
    });
  };

  const schema = { response: { 200: webhookReplySchema, '4xx': apiErrorSchema } };

  const handle = async (
    provider: string,
    request: FastifyRequest,
    reply: FastifyReply,
    check: (raw: string, body: () => unknown) => Checked | null | Promise<Checked | null>,
  ) => {
    let checked: Checked | null;
    try {
      const raw = typeof request.body === 'string' ? request.body : '';
      checked = await check(raw, () => parse(raw));
    } catch (error) {
      if (error instanceof ForgedWebhook) {
        request.log.warn({ provider }, 'webhook refused: not the provider');
        if (provider === 'postmark') reply.header('www-authenticate', 'Basic realm="webhooks"');
        return reply.code(401).send(apiError('unauthorized', error.message));
      }
      if (error instanceof MalformedWebhook) return reply.code(400).send(apiError('bad_request', error.message));
      throw error;
    }
    if (!checked)
      return reply.code(404).send(apiError('not_found', `The ${provider} webhook is not configured on this site.`));
    const counted = await take(provider, checked.nonce, checked.events);
    if (counted === 'replayed') {
      request.log.warn({ provider }, 'webhook refused: replayed');
      return reply
        .code(409)
        .send(apiError('conflict', 'This signed request was received before; it is not taken twice.'));
    }
    request.log.info({ provider, received: checked.events.length, counted }, 'webhook events stored');
    return reply.code(200).send({ message: 'Received.', received: checked.events.length, counted });
  };

  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(apiPaths.postmarkWebhook, { schema }, (request, reply) =>
    handle('postmark', request, reply, (_raw, body) => {
      if (!opts.postmark) return null;
      checkPostmarkAuth(request.headers.authorization, opts.postmark.user, opts.postmark.password);
      // Postmark signs nothing: its record ID makes the event idempotent; there is no nonce.
      return { nonce: null, events: postmarkEvents(body()) };
    }),
  );

  routes.post(apiPaths.mailgunWebhook, { schema }, (request, reply) =>
    handle('mailgun', request, reply, (_raw, body) => {
      if (!opts.mailgunSigningKey) return null;
      const parsed = body();
      const token = checkMailgunSignature(parsed, opts.mailgunSigningKey, app.clock());
      return { nonce: token, events: mailgunEvents(parsed) };
    }),
  );

  routes.post(apiPaths.sendgridWebhook, { schema }, (request, reply) =>
    handle('sendgrid', request, reply, (raw, body) => {
      if (!opts.sendgridKey) return null;
      const header = (name: string) => {
        const v = request.headers[name];
        return typeof v === 'string' ? v : undefined;
      };
      const nonce = checkSendgridSignature(
        raw,
        {
          signature: header('x-twilio-email-event-webhook-signature'),
          timestamp: header('x-twilio-email-event-webhook-timestamp'),
        },
        opts.sendgridKey,
        app.clock(),
      );
      return { nonce, events: sendgridEvents(body()) };
    }),
  );

  routes.post(apiPaths.sesWebhook, { schema }, (request, reply) =>
    handle('ses', request, reply, async (_raw, body) => {
      const sns = opts.ses;
      if (!sns) return null;
      const m = await sns.verify(body(), app.clock());
      if (m.Type === 'SubscriptionConfirmation' || m.Type === 'UnsubscribeConfirmation') {
        // Never confirmed by us: a URL from a request body is fetched by no one unattended. The
        // operator confirms it in the AWS console (or opens the link, logged only when it is SNS's own).
        const link = m.SubscribeURL && sns.pinned(m.SubscribeURL) ? m.SubscribeURL : undefined;
        request.log.warn(
          { provider: 'ses', type: m.Type, ...(link ? { subscribeUrl: link } : {}) },
          'SNS subscription message: confirm it by hand in the AWS console',
        );
        return { nonce: m.MessageId, events: [] };
      }
      return { nonce: m.MessageId, events: m.Type === 'Notification' ? sesEvents(m.Message) : [] };
    }),
  );
}
