import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema } from '../../shared/api-error.ts';
import {
  broadcastDraftSchema,
  broadcastIdParamsSchema,
  broadcastListSchema,
  broadcastPreviewSchema,
  broadcastSchema,
  testSentSchema,
  type BroadcastDraft,
} from '../../shared/admin/broadcast-schema.ts';
import { emptyBodySchema } from '../../shared/admin/sign-in-schema.ts';
import { adminApiPaths, pagePaths } from '../../shared/paths.ts';
import { unsubscribeUrl } from '../signups/queries.ts';
import type { BroadcastsTable } from '../store/schema.ts';
import { audit } from './audit.ts';
import { broadcastRefusal, type BroadcastPolicy } from './broadcast-guard.ts';
import { broadcastEmail, renderBody } from './broadcast-render.ts';
import * as store from './broadcast-store.ts';
import { operatorOf, requireRole } from './guards.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
const notFound = 'There is no such broadcast.';

export interface BroadcastRouteOptions {
  publicUrl: string;
  siteName: string;
  /** What the guard lets through: the official address, this site, the content file's links. */
  policy: BroadcastPolicy;
  ratePerSec: number;
}

/** Compose, preview, test, send (fresh proof), follow, pause, resume, cancel a launch broadcast. */
export function registerBroadcastRoutes(api: FastifyInstance, opts: BroadcastRouteOptions): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;

  // The one guard (broadcast-guard.ts, decision 0027): addresses however disguised, invisible
  // characters, links and images off the allow-list.
  const refusalOf = (d: BroadcastDraft): string | null => broadcastRefusal(d, opts.policy);

  const reply = async (b: BroadcastsTable) => {
    const { state, progress } = await store.progressOf(db(), b, opts.ratePerSec);
    return store.toBroadcast(b, state, progress, state === 'draft' ? refusalOf(b) : null);
  };
  const refuse = (res: FastifyReply, refusal: string) =>
    res.code(422).send(apiError('invalid_fields', refusal, { body: refusal }));
  const conflict = (res: FastifyReply, message: string) => res.code(409).send(apiError('conflict', message));

  app.get(
    adminApiPaths.broadcasts,
    { onRequest: requireRole('viewer'), schema: { response: { 200: broadcastListSchema, ...errors } } },
    async () => {
      const rows = await store.listBroadcasts(db());
      const broadcasts = await Promise.all(
        rows.map(async (b) => {
          const { state } = await store.progressOf(db(), b, opts.ratePerSec);
          return { id: b.id, subject: b.subject, state, createdAt: b.created_at, sentAt: b.sent_at };
        }),
      );
      return { broadcasts };
    },
  );

  app.post(
    adminApiPaths.broadcasts,
    { onRequest: requireRole('sender'), schema: { body: broadcastDraftSchema, response: { 200: broadcastSchema, ...errors } } },
    async (request) => {
      const operator = operatorOf(request);
      const id = await store.createDraft(db(), request.body, operator.email, api.clock());
      await audit(request, { action: 'broadcast.created', subject: id, detail: request.body.subject.slice(0, 200) });
      const b = await store.findBroadcast(db(), id);
      if (!b) throw new Error('a broadcast just created is missing');
      return reply(b);
    },
  );

  app.get(
    adminApiPaths.broadcast,
    { onRequest: requireRole('viewer'), schema: { params: broadcastIdParamsSchema, response: { 200: broadcastSchema, ...errors } } },
    async (request, res) => {
      const b = await store.findBroadcast(db(), request.params.id);
      if (!b) return res.code(404).send(apiError('not_found', notFound));
      return reply(b);
    },
  );

  app.post(
    adminApiPaths.broadcast,
    {
      onRequest: requireRole('sender'),
      schema: { params: broadcastIdParamsSchema, body: broadcastDraftSchema, response: { 200: broadcastSchema, ...errors } },
    },
    async (request, res) => {
      if (!(await store.saveDraft(db(), request.params.id, request.body, api.clock()))) {
        const b = await store.findBroadcast(db(), request.params.id);
        return b ? conflict(res, 'This broadcast has been sent or cancelled; it can no longer be changed.') : res.code(404).send(apiError('not_found', notFound));
      }
      const b = await store.findBroadcast(db(), request.params.id);
      if (!b) return res.code(404).send(apiError('not_found', notFound));
      return reply(b);
    },
  );

  app.get(
    adminApiPaths.broadcastPreview,
    { onRequest: requireRole('viewer'), schema: { params: broadcastIdParamsSchema, response: { 200: broadcastPreviewSchema, ...errors } } },
    async (request, res) => {
      const b = await store.findBroadcast(db(), request.params.id);
      if (!b) return res.code(404).send(apiError('not_found', notFound));
      const email = broadcastEmail({
        siteName: opts.siteName,
        subject: b.subject,
        body: renderBody(b.body),
        to: 'preview',
        unsubscribeUrl: `${opts.publicUrl}${pagePaths.unsubscribe}?id=…`,
      });
      return { subject: email.subject, html: email.html, text: email.text, refusal: refusalOf(b) };
    },
  );

  app.post(
    adminApiPaths.broadcastTest,
    { onRequest: requireRole('sender'), schema: { params: broadcastIdParamsSchema, body: emptyBodySchema, response: { 200: testSentSchema, ...errors } } },
    async (request, res) => {
      const operator = operatorOf(request);
      const b = await store.findBroadcast(db(), request.params.id);
      if (!b) return res.code(404).send(apiError('not_found', notFound));
      const refusal = refusalOf(b);
      if (refusal) return refuse(res, refusal);
      // Straight to the mail server, not through the outbox: the operator is waiting for it, and
      // a failure is theirs to see now. Its unsubscribe link is a real-looking one that matches
      // no subscriber.
      try {
        await api.mailer.send(
          broadcastEmail({
            siteName: opts.siteName,
            subject: b.subject,
            body: renderBody(b.body),
            to: operator.email,
            unsubscribeUrl: unsubscribeUrl(opts.publicUrl, api.keys, 'test-send'),
            test: true,
          }),
        );
      } catch (error) {
        request.log.warn({ err: error instanceof Error ? error.message.slice(0, 200) : 'unknown' }, 'broadcast test not sent');
        return res.code(503).send(apiError('unavailable', 'The mail server did not take the test email; try again in a minute.'));
      }
      await audit(request, { action: 'broadcast.test-sent', subject: b.id });
      return { sentTo: operator.email };
    },
  );

  app.post(
    adminApiPaths.broadcastSend,
    { onRequest: requireRole('sender', { freshProof: true }), schema: { params: broadcastIdParamsSchema, body: emptyBodySchema, response: { 200: broadcastSchema, ...errors } } },
    async (request, res) => {
      const operator = operatorOf(request);
      const b = await store.findBroadcast(db(), request.params.id);
      if (!b) return res.code(404).send(apiError('not_found', notFound));
      const refusal = refusalOf(b);
      if (refusal) return refuse(res, refusal);
      const recipients = await store.startSend(db(), b.id, operator.email, api.clock());
      if (recipients === null) return conflict(res, 'This broadcast has already been sent (or cancelled); it was not sent again.');
      await audit(request, { action: 'broadcast.sent', subject: b.id, detail: `to ${recipients} confirmed subscribers` });
      api.outbox.nudge();
      const now = await store.findBroadcast(db(), b.id);
      if (!now) throw new Error('a broadcast being sent is missing');
      return reply(now);
    },
  );

  const transition = (
    path: string,
    change: (id: string) => Promise<boolean>,
    action: 'broadcast.paused' | 'broadcast.resumed' | 'broadcast.cancelled',
    refused: string,
    guard: ReturnType<typeof requireRole>,
  ) =>
    app.post(
      path,
      { onRequest: guard, schema: { params: broadcastIdParamsSchema, body: emptyBodySchema, response: { 200: broadcastSchema, ...errors } } },
      async (request, res) => {
        const id = request.params.id;
        if (!(await change(id))) {
          return (await store.findBroadcast(db(), id)) ? conflict(res, refused) : res.code(404).send(apiError('not_found', notFound));
        }
        await audit(request, { action, subject: id });
        if (action === 'broadcast.resumed') api.outbox.nudge();
        const b = await store.findBroadcast(db(), id);
        if (!b) return res.code(404).send(apiError('not_found', notFound));
        return reply(b);
      },
    );
  transition(adminApiPaths.broadcastPause, (id) => store.pause(db(), id, api.clock()), 'broadcast.paused', 'Only a broadcast that is sending can be paused.',
    // The emergency stop: one press for anyone signed in, whatever their role.
    requireRole('viewer'));
  transition(adminApiPaths.broadcastResume, (id) => store.resume(db(), id, api.clock()), 'broadcast.resumed', 'Only a paused broadcast can be resumed.',
    // Sending again is sending: a stolen session alone must not undo someone's emergency stop.
    requireRole('sender', { freshProof: true }));
  transition(adminApiPaths.broadcastCancel, (id) => store.cancel(db(), id, api.clock()), 'broadcast.cancelled', 'This broadcast has finished or was cancelled already.',
    requireRole('sender'));
}
