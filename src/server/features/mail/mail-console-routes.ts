import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  liftSuppressionContract,
  suppressionsContract,
  suppressionsCsvContract,
} from '../../../shared/admin/contracts.ts';
import type { SuppressionEntry, SuppressionList, SuppressionListQuery } from '../../../shared/admin/suppressions.ts';
import { csvStream, fileStamp, neutraliseFormula } from '../../lib/csv.ts';
import { errorText } from '../../lib/log-safe.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { notFound } from '../../lib/not-found.ts';
import type { Database, SuppressionsTable } from '../../store/schema.ts';
import { audit } from '../audit/index.ts';

const PAGE = 50;
const CSV_BATCH = 250;

// Keyset paging, newest first: the cursor is the last entry's (created_at, id), so the thousandth
// page of a list grown after a launch costs what the first does.
const encodeCursor = (e: { created_at: string; id: string }) =>
  Buffer.from(`${e.created_at}|${e.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: string; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return at && id ? { at, id } : null;
}

async function page(
  db: Kysely<Database>,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<SuppressionsTable[]> {
  let q = db.selectFrom('suppressions').selectAll();
  if (after)
    q = q.where((eb) =>
      eb.or([eb('created_at', '<', after.at), eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)])]),
    );
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

const toEntry = (r: SuppressionsTable): SuppressionEntry => ({
  id: r.id,
  reason: r.reason,
  source: r.source,
  detail: r.detail,
  subscriberId: r.subscriber_id,
  createdAt: r.created_at,
  liftedAt: r.lifted_at,
  liftedBy: r.lifted_by,
});

async function readSuppressions(db: Kysely<Database>, query: SuppressionListQuery): Promise<SuppressionList> {
  const limit = query.limit ?? PAGE;
  const rows = await page(db, query.cursor ? decodeCursor(query.cursor) : null, limit + 1);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const standing = await db
    .selectFrom('suppressions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('lifted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    entries: shown.map(toEntry),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    standing: Number(standing.n),
  };
}

/** Every entry, newest first, a batch at a time (the CSV export). */
async function* allEntries(db: Kysely<Database>): AsyncGenerator<SuppressionsTable> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const rows = await page(db, after, CSV_BATCH);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < CSV_BATCH) return;
    after = { at: last.created_at, id: last.id };
  }
}

// The export's columns. The list holds no address, and the operator who lifted an entry is left
// out too: the file is about the entries, and an operator's address is personal data as well.
const CSV_HEADERS = ['Id', 'Reason', 'Source', 'Detail', 'Suppressed (UTC)', 'Lifted (UTC)'];
const csvCells = (r: SuppressionsTable): string[] =>
  [r.id, r.reason, r.source, r.detail ?? '', r.created_at, r.lifted_at ?? ''].map(neutraliseFormula);

/**
 * The mail feature's console routes. The suppression list (docs/decisions/0035): senders read it
 * and export it (fresh proof, audited); an owner lifts an entry, with fresh proof, audited — the
 * address may then be mailed again (a new sign-up, a resend).
 */
export function registerMailConsoleRoutes(api: FastifyInstance): void {
  const db = () => api.store.db;

  registerContract(api, suppressionsContract, async (request) => readSuppressions(db(), request.query));

  registerContract(api, liftSuppressionContract, async (request, reply) => {
    const now = api.clock().toISOString();
    const operator = request.operator?.email ?? null;
    const lifted = await db()
      .updateTable('suppressions')
      .set({ lifted_at: now, lifted_by: operator })
      .where('id', '=', request.params.id)
      .where('lifted_at', 'is', null)
      .returning('reason')
      .executeTakeFirst();
    if (!lifted)
      return notFound(reply, 'There is no standing suppression with this id (it may have been lifted already).');
    await audit(request, { action: 'suppression.lifted', subject: request.params.id, detail: lifted.reason });
    return { message: 'Lifted: this address may be mailed again.' };
  });

  // The whole list as CSV, streamed in keyset batches. A POST, because the export is audited; the
  // console fetches it and saves the file (decision 0016), as it does the subscribers' CSV.
  registerContract(api, suppressionsCsvContract, async (request, reply) => {
    const now = api.clock();
    // The count at the instant the export starts: the list only grows by a few rows a minute.
    const total = await db()
      .selectFrom('suppressions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    await audit(request, { action: 'suppressions.exported', detail: `CSV; ${Number(total.n)} rows` });
    const csv = csvStream(
      CSV_HEADERS,
      (async function* () {
        for await (const row of allEntries(db())) yield csvCells(row);
      })(),
    );
    csv.once('error', (error) =>
      request.log.error({ err: errorText(error) }, 'suppression CSV export failed mid-stream'),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="suppressions-${fileStamp(now)}.csv"`)
      .send(csv);
  });
}
