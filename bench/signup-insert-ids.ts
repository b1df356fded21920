// `tsx bench/signup-insert-ids.ts`: the CPU a sign-up's two rows (subscriber, outbox) cost SQLite
// with the app's schema (every index and trigger, migrated), in batches of 50 as the group commit
// makes them under load, with random (version 4) ids against time-ordered (version 7) ones, in
// turns, with synchronous=FULL as the server runs and OFF (no fsync: CPU alone). The statements are
// prepared once, so this is SQLite's own work (B-tree pages, triggers, WAL), not Kysely's.
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { timeOrderedId } from '../src/server/lib/time-ordered-id.ts';
import { openStore } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { testSecretsForBench } from './lib/processes.ts';
import { loadAverage } from './lib/run.ts';

const BATCH = 50;
const BATCHES = 300;
const dir = mkdtempSync(path.join(process.env.TMPDIR ?? os.tmpdir(), 'dh-insert-ids-'));
try {
  const template = path.join(dir, 'template.sqlite');
  const store = await openStore(`sqlite:${template}`);
  await migrateToLatest(store.db, { secrets: testSecretsForBench() });
  await store.db
    .insertInto('consent_wordings')
    .values({ version: 'v', text: 't', created_at: new Date().toISOString() })
    .execute();
  await store.close();

  const cols = [
    'id',
    'email',
    'email_key',
    'name',
    'comment',
    'status',
    'created_at',
    'updated_at',
    'confirmed_at',
    'unsubscribed_at',
    'last_confirmation_at',
    'consent_version',
    'consent_at',
    'consent_page',
    'country',
    'region',
    'city',
    'locale',
  ];
  const run = (label: string, newId: () => string, sync: 'FULL' | 'OFF'): void => {
    const file = path.join(dir, `run-${label}-${sync}.sqlite`);
    copyFileSync(template, file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync}`);
    db.pragma('foreign_keys = ON');
    const row = `(${cols.map(() => '?').join(', ')})`;
    const subscribers = db.prepare(
      `insert into subscribers (${cols.join(', ')}) values ${Array(BATCH).fill(row).join(', ')}`,
    );
    const outbox = db.prepare(
      `insert into outbox (id, kind, subscriber_id, status, attempts, next_attempt_at, created_at) values ${Array(BATCH)
        .fill('(?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
    );
    const now = new Date().toISOString();
    let n = 0;
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    for (let b = 0; b < BATCHES; b++) {
      const s: unknown[] = [];
      const o: unknown[] = [];
      for (let i = 0; i < BATCH; i++) {
        const id = newId();
        // Addresses in no order, as people sign up.
        const email = `p${(n * 2654435761) % 1e9}x${n++}@example.com`;
        s.push(
          id,
          email,
          email,
          'Bench',
          '',
          'pending',
          now,
          now,
          null,
          null,
          now,
          'v',
          now,
          '/',
          null,
          null,
          null,
          'en',
        );
        o.push(newId(), 'confirmation', id, 'pending', 0, now, now);
      }
      db.transaction(() => {
        subscribers.run(...s);
        outbox.run(...o);
      })();
    }
    const used = process.cpuUsage(cpu);
    const wallUs = Number(process.hrtime.bigint() - started) / 1e3;
    db.close();
    const per = (us: number) => `${(us / (BATCH * BATCHES)).toFixed(1)} µs`;
    console.log(
      `${label.padEnd(13)} synchronous=${sync.padEnd(4)}  CPU ${per(used.user + used.system)}, wall ${per(wallUs)} per sign-up`,
    );
  };
  console.log(`load average ${loadAverage()}; ${BATCHES} batches of ${BATCH} sign-ups, in ${dir}`);
  for (const sync of ['OFF', 'FULL'] as const) {
    for (let round = 0; round < 2; round++) {
      run('random (v4)', randomUUID, sync);
      run('time-ordered', () => timeOrderedId(), sync);
    }
  }
  console.log(`load average ${loadAverage()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
