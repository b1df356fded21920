import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../test/built-app.ts';
import { openStore } from '../store/database.ts';
import { migrateToLatest } from '../store/migrate.ts';
import { postSignupForm, postSignupJson, visitPage } from '../test/visitor.ts';

// The promise in the privacy notice, checked end to end: after real traffic, no file in the data
// directory (database, WAL, outbox) and no log line holds a client address.
const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const addresses = ['81.2.69.142', '81.2.69.160', '2a00:1450:4001:800::200e', '130.149.7.201'];

let dir: string;
let t: TestApp;
let logFile: string;

function* files(d: string): Generator<string> {
  for (const name of readdirSync(d)) {
    const full = path.join(d, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dh-privacy-'));
  logFile = path.join(dir, 'server.log');
  const log = createWriteStream(logFile);
  const store = await openStore(`sqlite:${path.join(dir, 'data/dh.sqlite')}`);
  await migrateToLatest(store.db);
  t = await buildTestApp({
    env: { TRUST_PROXY: 'true', LOG_LEVEL: 'trace', OUTBOX_DIR: path.join(dir, 'data/outbox') },
    store: { ...store, url: '', destroy: () => store.close() },
    // As in production: the file mailer (SMTP_URL unset) writes its lines to the same log.
    mailer: 'from-env',
    logStream: log,
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip, 'user-agent': chrome });
  for (const ip of addresses) {
    await t.app.inject({
      method: 'POST',
      url: apiPaths.visit,
      headers: { ...from(ip), 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: JSON.stringify({ p: '/', r: 'https://t.co/abc', tz: 'Europe/London', l: 'en-GB' }),
    });
    await t.app.inject({ url: '/', headers: from(ip) });
    await t.app.inject({ url: '/nope', headers: { ...from(ip), accept: 'text/html' } });
  }
  const visitor = await visitPage(t.app);
  t.clock.advance(5000);
  await postSignupJson(t.app, visitor, { name: 'Pat', email: 'pat@example.co.uk' }, from(addresses[0] ?? ''));
  await postSignupForm(t.app, visitor, { name: 'Sam', email: 'sam@example.de' }, from(addresses[3] ?? ''));
  await postSignupJson(t.app, visitor, { name: '', email: 'bad' }, from(addresses[1] ?? ''));
  await t.app.jobs.runOnce('outbox');
  // The beacons' after-answer work, then the buffered visits written.
  await t.app.jobs.runOnce('visit-flush');
  await t.close();
  await new Promise<void>((r) => log.end(r));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('no raw address is written anywhere', () => {
  it('really recorded the traffic (so the scan means something)', async () => {
    const all = [...files(dir)];
    expect(all.some((f) => f.endsWith('.eml'))).toBe(true);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('"path":"/signup"');
    // The file mailer names the file it wrote, never the recipient or the links.
    expect(log).toContain('Mail written to');
    expect(log).not.toContain('token=');
    const store = await openStore(`sqlite:${path.join(dir, 'data/dh.sqlite')}`);
    try {
      const visits = await store.db.selectFrom('visits').selectAll().execute();
      expect(visits).toHaveLength(addresses.length);
      expect(visits.map((v) => v.country).sort()).toEqual(['DE', 'DE', 'GB', 'GB']);
      const subs = await store.db.selectFrom('subscribers').selectAll().orderBy('email').execute();
      expect(subs.map((s) => [s.email, s.country])).toEqual([
        ['pat@example.co.uk', 'GB'],
        ['sam@example.de', 'DE'],
      ]);
    } finally {
      await store.close();
    }
  });

  it.each(addresses)('%s appears in no file and no log line', (ip) => {
    for (const file of files(dir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(ip)), `${ip} found in ${file}`).toBe(false);
    }
  });
});
