import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError, apiErrorSchema } from '../../shared/api-error.ts';
import {
  eraseSubscriberSchema,
  subscriberActionReplySchema,
  subscriberDataExportSchema,
  subscriberDetailSchema,
  subscriberIdParamsSchema,
  subscriberListQuerySchema,
  subscriberListReplySchema,
  subscribersCsvRequestSchema,
} from '../../shared/admin/subscribers.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { errorText } from '../lib/log-safe.ts';
import { checkpointAfterErasure } from '../store/database.ts';
import { appendToLedgerFile, ledgerEntryFor } from '../store/erasure-ledger.ts';
import {
  ConsoleInputError,
  eraseSubscriber,
  listSubscribers,
  resendConfirmation,
  resendMessage,
  subscriberDataExport,
  subscriberDetail,
  subscribersCsv,
} from '../signups/queries.ts';
import { audit } from './audit.ts';
import { requireFreshProof, requireOperator } from './guards.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
const goneMessage = 'There is no such subscriber (they may have been erased).';

/** What an erasure did, and what lies outside the app's reach, in words for the operator. */
const erasedMessage = (files: number): string =>
  [
    `Erased: their details and queued emails are gone from the list${files ? `, and ${files} email file(s) written to them from the outbox folder` : ''}; the sign-up totals keep counting them.`,
    'Outside this app’s reach: what your mail provider logged of emails sent to them, and backups taken before now, until those expire.',
    'Restoring any backup with npm run db:restore erases them again: the erasure ledger keeps a keyed hash of the address (never the address).',
  ].join(' ');

const notFound = (reply: FastifyReply) => reply.code(404).send(apiError('not_found', goneMessage));

/** Today's date and a short time, for download file names (no personal data in them). */
const stamp = (now: Date): string => now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');

/**
 * The Subscribers screen's endpoints, over the sign-up feature's console queries (decision 0014).
 * Reading needs a session; anything that hands personal data out in bulk or destroys it needs
 * fresh proof (an authenticator code in the last five minutes) and is audited, with the person's
 * id as the subject (never their address: the audit log outlives an erasure).
 */
export function registerSubscriberRoutes(api: FastifyInstance, opts: { erasureLedger: string }): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;

  app.get(
    adminApiPaths.subscribers,
    { onRequest: requireOperator, schema: { querystring: subscriberListQuerySchema, response: { 200: subscriberListReplySchema, ...errors } } },
    async (request, reply) => {
      try {
        return await listSubscribers(api.store, request.query);
      } catch (error) {
        // A forged or stale cursor: said in words, as the query schema says its own faults.
        if (error instanceof ConsoleInputError) return reply.code(400).send(apiError('bad_request', error.message));
        throw error;
      }
    },
  );

  app.get(
    adminApiPaths.subscriber,
    { onRequest: requireOperator, schema: { params: subscriberIdParamsSchema, response: { 200: subscriberDetailSchema, ...errors } } },
    async (request, reply) => (await subscriberDetail(db(), request.params.id, api.clock())) ?? notFound(reply),
  );

  app.post(
    adminApiPaths.subscriberResend,
    { onRequest: requireOperator, schema: { params: subscriberIdParamsSchema, response: { 200: subscriberActionReplySchema, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      const result = await resendConfirmation(db(), id, api.clock());
      if (result.outcome === 'unknown') return notFound(reply);
      if (result.outcome !== 'queued') {
        // Nothing happened (cool-down, or not pending): 409 with the reason and when to retry.
        return reply.code(409).send(apiError('bad_request', resendMessage(result)));
      }
      api.outbox.nudge();
      await audit(request, { action: 'subscriber.confirmation-resent', subject: id });
      return { message: resendMessage(result), done: true, nextAllowedAt: result.nextAllowedAt };
    },
  );

  // A POST, not a GET: handing out a person's data is an audited act.
  app.post(
    adminApiPaths.subscriberExport,
    { onRequest: requireFreshProof, schema: { params: subscriberIdParamsSchema, response: { 200: subscriberDataExportSchema, ...errors } } },
    async (request, reply) => {
      const { id } = request.params;
      const now = api.clock();
      const data = await subscriberDataExport(db(), id, now);
      if (!data) return notFound(reply);
      await audit(request, { action: 'subscriber.exported', subject: id, detail: 'JSON' });
      reply.header('content-disposition', `attachment; filename="subscriber-${stamp(now)}.json"`);
      return data;
    },
  );

  app.post(
    adminApiPaths.subscriberErase,
    {
      onRequest: requireFreshProof,
      schema: { params: subscriberIdParamsSchema, body: eraseSubscriberSchema, response: { 200: subscriberActionReplySchema, ...errors } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const person = await subscriberDetail(db(), id, api.clock());
      if (!person) return notFound(reply);
      if (request.body.confirmEmail.toLowerCase() !== person.email.trim().toLowerCase()) {
        return reply.code(400).send(
          apiError('invalid_fields', 'Nothing was erased.', {
            confirmEmail: 'That is not this person’s email address; type it exactly as shown.',
          }),
        );
      }
      const now = api.clock();
      const erased = await eraseSubscriber(db(), id, (emailKey) => ledgerEntryFor(api.keys.secrets, emailKey, now));
      if (erased.outcome === 'unknown') return notFound(reply);
      // Outside the database too, before saying it is done: a restore of an older backup re-applies it.
      appendToLedgerFile(opts.erasureLedger, [erased.entry]);
      const files = (await api.mailer.forget?.(person.email)) ?? 0;
      if (!(await checkpointAfterErasure(api.store))) {
        request.log.warn('after an erasure the SQLite WAL could not be emptied (another process was reading); it will be at the next checkpoint');
      }
      await audit(request, { action: 'subscriber.erased', subject: id, detail: `was ${person.status}` });
      return { message: erasedMessage(files), done: true };
    },
  );

  // The whole (filtered) list as CSV, streamed: csv-stringify over keyset batches with
  // back-pressure, so memory stays flat whatever the list's size (decision 0014). A POST, because
  // the export is audited; the console fetches it and saves the file (decision 0016).
  app.post(
    adminApiPaths.subscribersCsv,
    // No response schema: the 200 is a byte stream (its errors still take the one shape).
    { onRequest: requireFreshProof, schema: { body: subscribersCsvRequestSchema } },
    async (request, reply) => {
      const { q, status } = request.body;
      const now = api.clock();
      // The search term is not written down: it may be someone's address.
      await audit(request, {
        action: 'subscribers.exported',
        detail: `CSV; ${status ? `status ${status}` : 'every status'}${q ? '; filtered by a search' : ''}`,
      });
      const csv = subscribersCsv(api.store, { q, status });
      csv.once('error', (error) => {
        // The reply is already streaming: Fastify destroys the connection, so the browser sees a
        // failed download rather than a short file that looks complete.
        request.log.error({ err: errorText(error) }, 'subscriber CSV export failed mid-stream');
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="subscribers-${stamp(now)}.csv"`)
        .send(csv);
    },
  );
}
