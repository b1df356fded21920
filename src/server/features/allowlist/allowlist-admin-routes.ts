import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, PostgresAdapter } from 'kysely';
import { Address } from 'ox';
import type { AllowlistSnapshot, FreezeRequest } from '../../../shared/admin/allowlist.ts';
import type { BroadcastApprovals } from '../../../shared/admin/broadcast-schema.ts';
import {
  allowlistContract,
  allowlistCsvContract,
  allowlistFreezeApproveContract,
  allowlistFreezeContract,
  allowlistRemoveContract,
  allowlistReopenContract,
} from '../../../shared/admin/contracts.ts';
import { apiError } from '../../../shared/api-error.ts';
import { allEntries, entriesOnTerms, entryCounts, listEntries } from './queries.ts';
import { EmptyAllowlist, freezeSnapshot, listSnapshots, registrationOpen, setRegistration } from './snapshots.ts';
import { countryRefusals, removeEntry } from './allowlist-store.ts';
import { csvStream, fileStamp, neutraliseFormula } from '../../lib/csv.ts';
import { errorText } from '../../lib/log-safe.ts';
import { registerContract } from '../../lib/register-contract.ts';
import { notFound } from '../../lib/not-found.ts';
import type { AllowlistSnapshotsTable, Database } from '../../store/schema.ts';
import { audit, recordAudit } from '../audit/index.ts';
import { operatorOf } from '../operators/index.ts';

const PAGE = 50;
const FREEZE_REQUEST_KEY = 'allowlist.freeze-request';

const toSnapshot = (s: Omit<AllowlistSnapshotsTable, 'tree'>): AllowlistSnapshot => ({
  id: s.id,
  root: s.root,
  entries: s.entries,
  frozenAt: s.frozen_at,
  requestedBy: s.requested_by,
  approvedBy: s.approved_by,
  registrationAfter: s.registration_after,
  termsVersion: s.terms_version,
});

const encodeCursor = (e: { joined_at: string; address: string }) =>
  Buffer.from(`${e.joined_at}|${e.address}`).toString('base64url');
function decodeCursor(cursor: string): { at: string; address: string } | null {
  const [at, address] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return at && address ? { at, address } : null;
}

/**
 * The presale allowlist in the console (docs/decisions/0045-wallet-allowlist.md): senders read it
 * (counts by day, a search, entries newest first), remove an entry (audited), export it (fresh
 * proof, audited), and freeze a snapshot: one operator asks, a second approves with fresh proof
 * (the four eyes of a broadcast, decision 0028; BROADCAST_APPROVALS=1 freezes at once and says so
 * in the log). The freeze, its registration change and its audit row are one transaction.
 */
export function registerAllowlistAdminRoutes(
  api: FastifyInstance,
  opts: {
    approvals: BroadcastApprovals;
    /** The terms version live in this build: what a freeze may keep only the acceptors of. */
    termsVersion: string;
  },
): void {
  const db = () => api.store.db;
  const actor = (request: FastifyRequest) => ({ email: operatorOf(request).email, via: 'console' as const });
  const conflict = (reply: FastifyReply, message: string) => reply.code(409).send(apiError('conflict', message));

  /**
   * The standing freeze request. With `lock` (an approval, inside its transaction) its row stays
   * locked until the transaction ends (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE holds
   * the write lock already): two operators approving at once on two instances wait for each other,
   * and the second finds the request gone, so one request freezes one snapshot (docs/decisions/0063).
   */
  const readRequest = async (trx: Kysely<Database> = db(), lock = false): Promise<FreezeRequest | null> => {
    const q = trx.selectFrom('settings').select('value').where('key', '=', FREEZE_REQUEST_KEY);
    const row = await (
      lock && trx.getExecutor().adapter instanceof PostgresAdapter ? q.forUpdate() : q
    ).executeTakeFirst();
    return row ? (JSON.parse(row.value) as FreezeRequest) : null;
  };

  registerContract(api, allowlistContract, async (request) => {
    const { search, cursor } = request.query;
    const rows = await listEntries(db(), {
      search: search?.replace(/^0x/i, ''),
      after: cursor ? decodeCursor(cursor) : null,
      limit: PAGE + 1,
      now: api.clock(),
    });
    const shown = rows.slice(0, PAGE);
    const last = shown.at(-1);
    const counts = await entryCounts(db());
    return {
      entries: shown.map((r) => ({
        address: r.address,
        joinedAt: r.joined_at,
        country: r.country,
        email: r.email,
        termsVersion: r.terms_version,
      })),
      nextCursor: rows.length > PAGE && last ? encodeCursor(last) : null,
      total: counts.total,
      byDay: counts.byDay,
      registration: (await registrationOpen(db())) ? ('open' as const) : ('closed' as const),
      freezeRequest: await readRequest(),
      approvalsRequired: opts.approvals,
      snapshots: (await listSnapshots(db())).map(toSnapshot),
      termsVersion: opts.termsVersion,
      onCurrentTerms: await entriesOnTerms(db(), opts.termsVersion),
      refusedByCountry: await countryRefusals(db()),
    };
  });

  registerContract(api, allowlistRemoveContract, async (request, reply) => {
    const address = Address.checksum(request.body.address as Address.Address);
    const removed = await db()
      .transaction()
      .execute(async (trx) => {
        if (!(await removeEntry(trx, address))) return false;
        await recordAudit(trx, api.clock(), actor(request), { action: 'allowlist.entry-removed', subject: address });
        return true;
      });
    if (!removed) return notFound(reply, `${address} is not on the allowlist.`);
    return { message: `Removed ${address} from the allowlist. A snapshot frozen before keeps it.` };
  });

  /** What a freeze keeps, for its audit row: every entry, or the live terms' acceptors only. */
  const termsScope = (currentTermsOnly: boolean) =>
    currentTermsOnly
      ? `only entries that accepted terms version ${opts.termsVersion} (no terms or an older version left out)`
      : 'every entry, whatever terms it accepted';

  async function freeze(request: FastifyRequest, reply: FastifyReply, approving: boolean) {
    const me = operatorOf(request).email;
    const now = api.clock();
    try {
      const outcome = await db()
        .transaction()
        .execute(async (trx) => {
          let requestedBy = me;
          const body = request.body as { keepOpen?: boolean; currentTermsOnly?: boolean } | undefined;
          let keepOpen = body?.keepOpen ?? false;
          let currentTermsOnly = body?.currentTermsOnly ?? false;
          if (approving) {
            const asked = await readRequest(trx, true);
            if (!asked) return 'No freeze has been requested: ask for one first.';
            if (asked.requestedBy === me)
              return 'You asked for this freeze: a second operator approves it (the four eyes of a broadcast).';
            requestedBy = asked.requestedBy;
            keepOpen = asked.keepOpen;
            currentTermsOnly = asked.currentTermsOnly ?? false;
          } else if (opts.approvals === 2) {
            const asked: FreezeRequest = {
              requestedBy: me,
              requestedAt: now.toISOString(),
              keepOpen,
              currentTermsOnly,
            };
            await trx
              .insertInto('settings')
              .values({ key: FREEZE_REQUEST_KEY, value: JSON.stringify(asked) })
              .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(asked) }))
              .execute();
            await recordAudit(trx, now, actor(request), {
              action: 'allowlist.freeze-requested',
              detail: `${keepOpen ? 'registration to stay open' : 'registration to close'}; ${termsScope(currentTermsOnly)}`,
            });
            return null;
          }
          const snapshot = await freezeSnapshot(trx, {
            now,
            requestedBy,
            approvedBy: approving ? me : null,
            keepOpen,
            termsVersion: currentTermsOnly ? opts.termsVersion : null,
          });
          await trx.deleteFrom('settings').where('key', '=', FREEZE_REQUEST_KEY).execute();
          await recordAudit(trx, now, actor(request), {
            action: approving ? 'allowlist.frozen' : 'allowlist.frozen-unapproved',
            subject: snapshot.id,
            detail: `root ${snapshot.root}; ${snapshot.entries} entries; ${termsScope(currentTermsOnly)}; requested by ${requestedBy}; registration ${snapshot.registration_after}`,
          });
          return snapshot;
        });
      if (typeof outcome === 'string') return conflict(reply, outcome);
      if (outcome === null)
        return { message: 'Freeze requested: a second operator approves it with a fresh code.', snapshot: null };
      return {
        message: `Frozen: ${outcome.entries} addresses, root ${outcome.root}. Put this root into the sale contract.`,
        snapshot: toSnapshot(outcome),
      };
    } catch (error) {
      if (error instanceof EmptyAllowlist) return conflict(reply, error.message);
      throw error;
    }
  }

  registerContract(api, allowlistFreezeContract, (request, reply) => freeze(request, reply, false));
  registerContract(api, allowlistFreezeApproveContract, (request, reply) => freeze(request, reply, true));

  registerContract(api, allowlistReopenContract, async (request) => {
    await setRegistration(db(), true);
    await audit(request, { action: 'allowlist.reopened' });
    return { message: 'Registration is open again: visitors can join for the next round.' };
  });

  // The whole list as CSV (address, joined, country, whether an email is linked: yes only for a link
  // its email's owner confirmed, no for none or a pending one; never the address; the terms version
  // accepted, or "before terms"), oldest address order, streamed. A POST, because the export is audited
  // (decision 0016).
  registerContract(api, allowlistCsvContract, async (request, reply) => {
    const now = api.clock();
    const { total } = await entryCounts(db());
    await audit(request, { action: 'allowlist.exported', detail: `CSV; ${total} rows` });
    const csv = csvStream(
      ['Address', 'Joined (UTC)', 'Country', 'Email linked', 'Terms version'],
      (async function* () {
        for await (const r of allEntries(db(), now))
          yield [
            r.address,
            r.joined_at,
            r.country ?? '',
            r.email === 'linked' ? 'yes' : 'no',
            r.terms_version ?? 'before terms',
          ].map(neutraliseFormula);
      })(),
    );
    csv.once('error', (error) =>
      request.log.error({ err: errorText(error) }, 'allowlist CSV export failed mid-stream'),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="allowlist-${fileStamp(now)}.csv"`)
      .send(csv);
  });
}
