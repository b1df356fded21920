import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiError } from '../../../shared/api-error.ts';
import { errorText } from '../../lib/log-safe.ts';
import { checkpointAfterErasure } from '../../store/database.ts';
import { appendToLedgerFile, ledgerEntryFor } from '../../store/erasure-ledger.ts';
import { ConsoleInputError, listSubscribers } from './subscriber-list.ts';
import { subscriberDataExport, subscriberDetail } from './subscriber-records.ts';
import { eraseSubscriber, resendConfirmation, resendMessage } from './subscriber-actions.ts';
import { subscribersCsv } from './subscriber-csv.ts';
import { finished } from 'node:stream';
import { audit } from '../audit/index.ts';
import { askForFreshProof, hasFreshProof, operatorOf } from '../operators/index.ts';
import { countPersonalReads, readsNote, type PersonalReads } from '../audit/index.ts';
import { mailStatusOf, standingSuppression } from './mail-status.ts';
import {
  subscriberDetailsContract,
  subscriberEraseContract,
  subscriberExportContract,
  subscriberResendContract,
  subscribersContract,
  subscribersCsvContract,
} from '../../../shared/admin/contracts.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { notFound } from '../../lib/not-found.ts';
import { fileStamp } from '../../lib/csv.ts';

const goneMessage = 'There is no such subscriber (they may have been erased).';

/** What an erasure did, and what lies outside the app's reach, in words for the operator. */
const erasedMessage = (files: number): string =>
  [
    `Erased: their details and queued emails are gone from the list${files ? `, and ${files} email file(s) written to them from the outbox folder` : ''}; the sign-up totals keep counting them.`,
    'Outside this app’s reach: what your mail provider logged of emails sent to them, and backups taken before now, until those expire.',
    'Restoring any backup with npm run db:restore erases them again: the erasure ledger keeps a keyed hash of the address (never the address).',
  ].join(' ');

const gone = (reply: FastifyReply) => notFound(reply, goneMessage);

/**
 * The Subscribers screen's endpoints, over the sign-up feature's console queries (decision 0014).
 * The list is masked (no name, city or comment; `a•••@example.com`); a person's details are read
 * on purpose, one at a time, and audited. Every personal read (details, a search, a row exported)
 * counts against the operator's daily allowance, shared by every instance; past it a read needs
 * fresh proof (decision 0029). Anything that hands personal data out in bulk or destroys it needs
 * fresh proof always and is audited, with the person's id as the subject (never their address: the
 * audit log outlives an erasure).
 */
export function registerSubscriberRoutes(
  api: FastifyInstance,
  opts: { dailyAllowance: number; erasureLedger: string },
): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;
  const allowance = opts.dailyAllowance;

  /**
   * Counts `n` personal records for the request's operator; past the allowance without fresh
   * proof, counts nothing, answers 403 fresh_proof_required and returns null.
   */
  async function meter(request: FastifyRequest, reply: FastifyReply, n: number): Promise<PersonalReads | null> {
    const reads = await countPersonalReads(db(), {
      operatorId: operatorOf(request).id,
      now: api.clock(),
      n,
      allowance,
      freshProof: hasFreshProof(request),
    });
    if (!reads) await askForFreshProof(reply);
    return reads;
  }

  registerContract(api, subscribersContract, async (request, reply) => {
    // A search is a question about people (is this address on the list? whose address starts
    // with "ab"?), answered however the rows are masked: it counts as one record read. Paging the
    // masked list without a search reads no one's personal data and costs nothing.
    if (request.query.q && !(await meter(request, reply, 1))) return reply;
    try {
      return await listSubscribers(api.store, request.query);
    } catch (error) {
      // A forged or stale cursor: said in words, as the query schema says its own faults.
      if (error instanceof ConsoleInputError) return reply.code(400).send(apiError('bad_request', error.message));
      throw error;
    }
  });

  // A POST, not a GET: reading one person's details is an audited act (decision 0029).
  registerContract(api, subscriberDetailsContract, async (request, reply) => {
    const { id } = request.params;
    const person = await subscriberDetail(db(), id, api.clock());
    if (!person) return gone(reply);
    const reads = await meter(request, reply, 1);
    if (!reads) return reply;
    await audit(request, { action: 'subscriber.viewed', subject: id, detail: readsNote(reads, allowance) });
    // Whether mail reaches them: a resend to a suppressed address would send nothing, so it is not offered.
    const mail = await mailStatusOf(db(), api.suppressions, person.email);
    const resend = mail.suppressed ? { allowed: false, availableAt: null } : person.resend;
    return { ...person, resend, reads: { today: reads.records, allowance }, mail };
  });

  registerContract(api, subscriberResendContract, async (request, reply) => {
    const { id } = request.params;
    const result = await resendConfirmation(db(), id, api.clock(), {
      suppressionOf: (trx, address) => standingSuppression(trx, api.suppressions, address),
    });
    if (result.outcome === 'unknown') return gone(reply);
    if (result.outcome !== 'queued') {
      // Nothing happened (cool-down, not pending, or suppressed): 409 with the reason and, for a
      // cool-down, when to retry.
      return reply.code(409).send(apiError('bad_request', resendMessage(result)));
    }
    api.outbox.nudge();
    await audit(request, { action: 'subscriber.confirmation-resent', subject: id });
    return { message: resendMessage(result), done: true, nextAllowedAt: result.nextAllowedAt };
  });

  // A POST, not a GET: handing out a person's data is an audited act.
  registerContract(api, subscriberExportContract, async (request, reply) => {
    const { id } = request.params;
    const now = api.clock();
    const data = await subscriberDataExport(db(), id, now);
    if (!data) return gone(reply);
    const reads = await meter(request, reply, 1);
    if (!reads) return reply;
    await audit(request, {
      action: 'subscriber.exported',
      subject: id,
      detail: `JSON; ${readsNote(reads, allowance)}`,
    });
    reply.header('content-disposition', `attachment; filename="subscriber-${fileStamp(now)}.json"`);
    return data;
  });

  registerContract(api, subscriberEraseContract, async (request, reply) => {
    const { id } = request.params;
    const person = await subscriberDetail(db(), id, api.clock());
    if (!person) return gone(reply);
    if (request.body.confirmEmail.toLowerCase() !== person.email.trim().toLowerCase()) {
      return reply.code(400).send(
        apiError('invalid_fields', 'Nothing was erased.', {
          confirmEmail: 'That is not this person’s email address; type it exactly as shown.',
        }),
      );
    }
    const now = api.clock();
    const erased = await eraseSubscriber(db(), id, (emailKey) => ledgerEntryFor(api.keys.secrets, emailKey, now));
    if (erased.outcome === 'unknown') return gone(reply);
    // Outside the database too, before saying it is done: a restore of an older backup re-applies it.
    appendToLedgerFile(opts.erasureLedger, [erased.entry]);
    const files = (await api.mailer.forget?.(person.email)) ?? 0;
    if (!(await checkpointAfterErasure(api.store))) {
      request.log.warn(
        'after an erasure the SQLite WAL could not be emptied (another process kept reading); it will be at the next checkpoint',
      );
    }
    await audit(request, { action: 'subscriber.erased', subject: id, detail: `was ${person.status}` });
    return { message: erasedMessage(files), done: true };
  });

  // The whole (filtered) list as CSV, streamed: csv-stringify over keyset batches with
  // back-pressure, so memory stays flat whatever the list's size (decision 0014). A POST, because
  // the export is audited; the console fetches it and saves the file (decision 0016).
  registerContract(app, subscribersCsvContract, async (request, reply) => {
    const { q, status, locale } = request.body;
    const now = api.clock();
    // The search term is not written down: it may be someone's address.
    await audit(request, {
      action: 'subscribers.exported',
      detail: `CSV; ${status ? `status ${status}` : 'every status'}${locale ? `; locale ${locale}` : ''}${q ? '; filtered by a search' : ''}`,
    });
    let rows = 0;
    const csv = subscribersCsv(api.store, { q, status, locale }, undefined, () => rows++);
    csv.once('error', (error) => {
      // The reply is already streaming: Fastify destroys the connection, so the browser sees a
      // failed download rather than a short file that looks complete.
      request.log.error({ err: errorText(error) }, 'subscriber CSV export failed mid-stream');
    });
    // The rows handed out are known only at the end: counted then (this route had fresh proof,
    // so the count always goes up) and audited with the day's total, cut short or not.
    finished(csv, (error) => {
      void (async () => {
        const reads = await countPersonalReads(db(), {
          operatorId: operatorOf(request).id,
          now: api.clock(),
          n: rows,
          allowance,
          freshProof: true,
        });
        await audit(request, {
          action: 'subscribers.export-counted',
          detail: `${rows} rows${error ? ' (cut short)' : ''}; ${reads ? readsNote(reads, allowance) : ''}`,
        });
      })().catch((failure: unknown) =>
        request.log.error({ err: errorText(failure) }, 'subscriber CSV export not counted'),
      );
    });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="subscribers-${fileStamp(now)}.csv"`)
      .send(csv);
  });
}
