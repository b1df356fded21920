import type { KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema, codeForStatus } from '../../../shared/api-error.ts';
import { webhookReplySchema } from '../../../shared/mail-webhooks.ts';
import { apiPaths } from '../../../shared/paths.ts';
import type { Suppressions } from './suppression.ts';
import { sesEvents, type SnsVerifier } from './sns.ts';
import { notFound } from '../../lib/not-found.ts';
import { statusOf } from '../../plugins/http-contract.ts';
import { parseWebhookJson, tooLargeWords, webhookLimits } from './webhook-json.ts';
import {
  checkMailgunSignature,
  checkPostmarkAuth,
  checkSendgridSignature,
  ForgedWebhook,
  MalformedWebhook,
  mailgunEvents,
  postmarkEvents,
  sendgridEvents,
  sendgridProof,
  WebhookBusy,
  type ProviderEvent,
  type SendgridProof,
} from './webhooks.ts';

// The providers' bounce and complaint webhooks (docs/decisions/0035). Each is refused unless the
// provider's own proof holds, refused when the same signed request comes again, and idempotent:
// an event heard twice counts once (bounce_events). A provider not configured answers 404.
//
// In the order that costs an unauthenticated sender least: what the headers alone can refuse
// (not configured; Postmark's credentials; SendGrid's signature headers and timestamp; SNS's
// topic header) is refused before the body is read; SendGrid's signature is checked over the raw
// bytes before they are parsed; and every parse is bounded in size and depth per provider
// (webhook-json.ts), which is all that stands before Mailgun's and SES's parse, their proof being
// inside the body.

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
type Provider = keyof typeof webhookLimits;

interface WebhookRoute<Pre> {
  path: string;
  configured: boolean;
  /** Checks what the headers alone can, before the body is read; what it returns goes to `check`. */
  beforeBody: (request: FastifyRequest) => Pre;
  /** Checks the raw body and turns it into events; `parse` is the provider's bounded parse. */
  check: (raw: string, pre: Pre, parse: () => unknown, request: FastifyRequest) => Checked | Promise<Checked>;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

export async function webhookRoutes(app: FastifyInstance, opts: WebhookOptions): Promise<void> {
  // The raw text, as sent: SendGrid signs the exact bytes, and SNS posts JSON as text/plain. The
  // size limit is each route's own bodyLimit (webhookLimits), which wins over a parser's.
  for (const type of ['application/json', 'text/plain']) {
    app.addContentTypeParser(type, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  }

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

  /** The refusals, in the one error shape; anything else is not ours to answer. */
  const refusal = (provider: Provider, request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (error instanceof ForgedWebhook) {
      request.log.warn({ provider }, 'webhook refused: not the provider');
      if (provider === 'postmark') reply.header('www-authenticate', 'Basic realm="webhooks"');
      return reply.code(401).send(apiError('unauthorized', error.message));
    }
    if (error instanceof MalformedWebhook) return reply.code(400).send(apiError('bad_request', error.message));
    if (error instanceof WebhookBusy) {
      request.log.warn({ provider }, 'webhook deferred: %s', error.message);
      reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(503).send(apiError('unavailable', error.message));
    }
    throw error;
  };

  const schema = { response: { 200: webhookReplySchema, '4xx': apiErrorSchema, 503: apiErrorSchema } };
  const routes = app.withTypeProvider<ZodTypeProvider>();
  /** What beforeBody returned, for the handler of the same request. */
  const preChecked = new WeakMap<FastifyRequest, unknown>();

  const register = <Pre>(provider: Provider, route: WebhookRoute<Pre>) => {
    const limit = webhookLimits[provider];
    routes.post(
      route.path,
      {
        schema,
        bodyLimit: limit.bodyBytes,
        // A body over the limit is told this route's own limit (the site-wide words say 16 KB,
        // which is the forms' figure, not a webhook's); anything else is answered as everywhere.
        errorHandler: (error, _request, reply) => {
          if (statusOf(error) === 413)
            return reply.code(413).send(apiError(codeForStatus(413), tooLargeWords(limit.bodyBytes)));
          throw error; // to the app's handler, as every other route's errors
        },
        // Before the body is read: a refusal here parses nothing. (The connection is kept: Node
        // drains the unread body without keeping it, and closing under a proxy still sending it
        // would turn the refusal into a reset.)
        onRequest: async (request, reply) => {
          if (!route.configured) return notFound(reply, `The ${provider} webhook is not configured on this site.`);
          try {
            preChecked.set(request, route.beforeBody(request));
          } catch (error) {
            return refusal(provider, request, reply, error);
          }
          return undefined;
        },
      },
      async (request, reply) => {
        let checked: Checked;
        try {
          const raw = typeof request.body === 'string' ? request.body : '';
          checked = await route.check(
            raw,
            preChecked.get(request) as Pre,
            () => parseWebhookJson(raw, limit.depth),
            request,
          );
        } catch (error) {
          return refusal(provider, request, reply, error);
        }
        const counted = await take(provider, checked.nonce, checked.events);
        if (counted === 'replayed') {
          request.log.warn({ provider }, 'webhook refused: replayed');
          return reply
            .code(409)
            .send(apiError('conflict', 'This signed request was received before; it is not taken twice.'));
        }
        request.log.info({ provider, received: checked.events.length, counted }, 'webhook events stored');
        return reply.code(200).send({ message: 'Received.', received: checked.events.length, counted });
      },
    );
  };

  const postmark = opts.postmark;
  register('postmark', {
    path: apiPaths.postmarkWebhook,
    configured: !!postmark,
    beforeBody: (request) => {
      if (postmark) checkPostmarkAuth(request.headers.authorization, postmark.user, postmark.password);
    },
    // Postmark signs nothing: its record ID makes the event idempotent; there is no nonce.
    check: (_raw, _pre, parse) => ({ nonce: null, events: postmarkEvents(parse()) }),
  });

  const mailgunKey = opts.mailgunSigningKey;
  register('mailgun', {
    path: apiPaths.mailgunWebhook,
    configured: !!mailgunKey,
    beforeBody: () => undefined,
    // Mailgun's signature is inside the body: the bounded parse comes first, necessarily.
    check: (_raw, _pre, parse) => {
      const parsed = parse();
      const token = checkMailgunSignature(parsed, mailgunKey ?? '', app.clock());
      return { nonce: token, events: mailgunEvents(parsed) };
    },
  });

  const sendgridKey = opts.sendgridKey;
  register<SendgridProof | undefined>('sendgrid', {
    path: apiPaths.sendgridWebhook,
    configured: !!sendgridKey,
    beforeBody: (request) =>
      sendgridProof(
        {
          signature: header(request, 'x-twilio-email-event-webhook-signature'),
          timestamp: header(request, 'x-twilio-email-event-webhook-timestamp'),
        },
        app.clock(),
      ),
    check: (raw, proof, parse) => {
      if (!proof || !sendgridKey) throw new ForgedWebhook('The SendGrid signature headers are missing.');
      // Over the raw bytes, before they are parsed: a stranger's body is never parsed.
      checkSendgridSignature(raw, proof, sendgridKey);
      return { nonce: proof.nonce, events: sendgridEvents(parse()) };
    },
  });

  const sns = opts.ses;
  register('ses', {
    path: apiPaths.sesWebhook,
    configured: !!sns,
    // SNS names the topic in a header on every POST: another topic is refused unread.
    beforeBody: (request) => {
      if (sns && header(request, 'x-amz-sns-topic-arn') !== sns.topicArn)
        throw new ForgedWebhook('This SNS message is for another topic.');
    },
    check: async (_raw, _pre, parse, request) => {
      if (!sns) throw new ForgedWebhook('This SNS message is for another topic.');
      const m = await sns.verify(parse(), app.clock());
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
    },
  });
}
