import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../store/database.ts';
import { migrateToLatest } from '../../store/migrate.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { startSend } from './broadcast-sending.ts';
import { createDraft } from './broadcast-store.ts';
import { testSecrets } from '../../test/test-store.ts';

// "Broadcast resume after a killed process": the built server (dist/) on its own SQLite file,
// mailing a real SMTP sink, is killed with SIGKILL in the middle of a broadcast and started again.
// At the end every recipient is accounted for, and the duplicates are counted (and printed).
const main = path.resolve(import.meta.dirname, '../../../../dist/server/main.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-broadcast-kill-'));
const dbUrl = `sqlite:${path.join(dir, 'dh.sqlite')}`;
const RECIPIENTS = 200;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves when `check` holds (polled), or rejects after `timeoutMs`; no fixed sleeps. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function startServer(sink: SmtpSink): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_KEY: process.env.DATA_KEY ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1:8080',
      DATABASE_URL: dbUrl,
      SMTP_URL: sink.url,
      MAIL_RATE_PER_SEC: '40',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, exited };
}

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dbUrl);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('a broadcast survives kill -9 of the server in the middle of sending', () => {
  it(
    `accounts for all ${RECIPIENTS} recipients after a restart; duplicates at most the rows in flight at the kill`,
    { timeout: 180_000 },
    async () => {
      const sink = await startSmtpSink();
      const broadcastId = await withStore(async (store) => {
        await migrateToLatest(store.db, { secrets: testSecrets() });
        for (let i = 0; i < RECIPIENTS; i++)
          await insertSubscriber(store.db, `r${i}@example.com`, { status: 'confirmed' });
        const id = await createDraft(
          store.db,
          { subject: 'Kill test', body: 'Hello **holders**.' },
          'ops@example.com',
          new Date(),
        );
        // The send's checks have their own tests (broadcast-approval.test.ts); this one is about the restart.
        const started = await startSend(store.db, id, { email: 'ops@example.com', via: 'console' }, new Date(), {
          approvals: 1,
          refusalOf: () => null,
        });
        expect(started).toMatchObject({ outcome: 'started', recipients: RECIPIENTS });
        return id;
      });

      const first = startServer(sink);
      await until(() => sink.messages.length >= 60, 'the first 60 emails');
      first.child.kill('SIGKILL');
      await first.exited;
      const receivedAtKill = sink.messages.length;

      // Rows a worker had claimed when it died: the restarted server takes them again once their
      // lease (5 minutes, longer than any SMTP exchange) has run out. Waiting 5 minutes here would
      // prove nothing more, so the lease is ended in the database: exactly what the passing of
      // time does.
      const inFlight = await withStore(async (store) => {
        const held = await store.db
          .updateTable('outbox')
          .set({ locked_until: '2000-01-01T00:00:00.000Z' })
          .where('broadcast_id', '=', broadcastId)
          .where('status', '=', 'pending')
          .where('locked_by', 'is not', null)
          .executeTakeFirst();
        return Number(held.numUpdatedRows);
      });

      const second = startServer(sink);
      try {
        await until(
          () =>
            withStore(async (store) => {
              const left = await store.db
                .selectFrom('outbox')
                .select('id')
                .where('broadcast_id', '=', broadcastId)
                .where('status', '=', 'pending')
                .execute();
              return left.length === 0;
            }),
          'every row to be sent',
        );
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
        await sink.close();
      }

      const counts = await withStore(async (store) => {
        const rows = await store.db
          .selectFrom('outbox')
          .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
          .where('broadcast_id', '=', broadcastId)
          .groupBy('status')
          .execute();
        return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      });
      const sent = counts.sent ?? 0;
      const failed = counts.failed ?? 0;
      const skipped = counts.cancelled ?? 0;
      expect(sent + failed + skipped).toBe(RECIPIENTS);

      const perRecipient = new Map<string, number>();
      for (const m of sink.messages) {
        const to = m.to && 'text' in m.to ? m.to.text : '';
        perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      }
      // Nobody missed.
      expect(perRecipient.size).toBe(RECIPIENTS);
      const duplicates = sink.messages.length - perRecipient.size;
      // Only a row whose email the server had taken but whose "sent" was not yet written can go twice.
      expect(duplicates).toBeLessThanOrEqual(inFlight);
      console.log(
        `broadcast kill -9: ${RECIPIENTS} recipients, ${receivedAtKill} received before the kill, ${inFlight} rows in flight at the kill, ` +
          `${sent} sent + ${failed} failed + ${skipped} skipped, ${sink.messages.length} emails received, ${duplicates} duplicate(s)`,
      );
    },
  );
});
