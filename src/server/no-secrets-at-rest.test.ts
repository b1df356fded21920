import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, metricsPath } from '../shared/paths.ts';
import { openStore } from './store/database.ts';
import { migrateToLatest } from './store/migrate.ts';
import { buildTestApp, type TestApp } from './test/built-app.ts';
import { dialectCases, openTestStore, tablesOf, testSecrets, type TestStore } from './test/test-store.ts';
import { postSignupForm, postSignupJson, visitPage, type Visitor } from './test/visitor.ts';

// The privacy notice's promise, checked after a whole flow (beacons, sign-ups, the emails, the
// confirm and unsubscribe links, a malformed address, a metrics scrape) at the most talkative log
// level: the log and the metrics hold no client address, no email address, no link token or
// signature, no secret; the data (the SQLite file, its WAL, the outbox, every table) holds no
// client address, link tokens exist only inside the emails, and the secret in none of them (the
// database keeps it only encrypted).

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const addresses = ['81.2.69.142', '130.149.7.201', '2a00:1450:4001:800::200e'];
const emails = ['pat.canary@example.co.uk', 'sam.canary@example.de'];
const appSecret = `canary-app-secret-${randomBytes(24).toString('base64url')}`;
const metricsToken = `canary-metrics-${randomBytes(24).toString('base64url')}`;
const EMAIL_IN_TEXT = /[\w.+-]+@[\w-]+(\.[\w-]+)+/;

function* files(d: string): Generator<string> {
  for (const name of readdirSync(d)) {
    const full = path.join(d, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Opens a link from an email as a browser would and, when the page asks for a press, presses it. */
async function followLink(t: TestApp, link: string, visitor: Visitor): Promise<LightMyRequestResponse> {
  const u = new URL(link);
  const opened = await t.app.inject({
    url: `${u.pathname}${u.search}`,
    headers: { accept: 'text/html', cookie: visitor.cookie },
  });
  const form = /<form[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(opened.body);
  if (!form) return opened;
  const action = /action="([^"]*)"/i.exec(form[0])?.[1]?.replace(/&amp;/g, '&') || `${u.pathname}${u.search}`;
  const fields = new URLSearchParams();
  for (const input of form[1]?.matchAll(/<input[^>]*>/gi) ?? []) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields.set(name, value.replace(/&amp;/g, '&'));
  }
  return t.app.inject({
    method: 'POST',
    url: action,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: 'https://dh.example',
      'sec-fetch-site': 'same-origin',
      cookie: visitor.cookie,
      'x-xsrf-token': visitor.xsrf,
    },
    payload: fields.toString(),
  });
}

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`after a whole flow on ${label}`, () => {
    let dir: string;
    let logFile: string;
    let store: TestStore;
    let t: TestApp;
    const links: string[] = [];
    const secrets: string[] = [];
    let metricsText = '';

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'dh-scan-'));
      logFile = path.join(dir, 'server.log');
      const log = createWriteStream(logFile);
      if (dialect === 'sqlite') {
        const opened = await openStore(`sqlite:${path.join(dir, 'data/dh.sqlite')}`);
        await migrateToLatest(opened.db, { secrets: testSecrets() });
        store = { ...opened, url: '', destroy: () => opened.close() };
      } else {
        store = await openTestStore('postgres');
      }
      t = await buildTestApp({
        env: {
          TRUST_PROXY: 'true',
          LOG_LEVEL: 'trace',
          OUTBOX_DIR: path.join(dir, 'data/outbox'),
          APP_SECRET: appSecret,
          METRICS_TOKEN: metricsToken,
        },
        store,
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
        await t.app.inject({ url: '/%', headers: { ...from(ip), accept: 'text/html' } });
      }
      const visitor = await visitPage(t.app);
      t.clock.advance(5000);
      await postSignupJson(t.app, visitor, { name: 'Pat', email: emails[0] }, from(addresses[0] ?? ''));
      await postSignupForm(t.app, visitor, { name: 'Sam', email: emails[1] ?? '' }, from(addresses[2] ?? ''));
      await postSignupJson(t.app, visitor, { name: '', email: 'not-an-address' }, from(addresses[1] ?? ''));
      await t.app.jobs.runOnce('outbox');

      // The links, as the recipients got them.
      const outbox = path.join(dir, 'data/outbox');
      const linksTo = new Map<string, string[]>();
      for (const file of readdirSync(outbox).sort()) {
        const mail = await simpleParser(readFileSync(path.join(outbox, file)));
        const to = [mail.to ?? []]
          .flat()
          .flatMap((a) => a.value.map((v) => v.address ?? ''))
          .join(',');
        const found = (mail.text ?? '').match(/https?:\/\/[^\s<>"')]+/g) ?? [];
        linksTo.set(to, [...(linksTo.get(to) ?? []), ...found]);
        links.push(...found);
      }
      for (const link of links) {
        // Every parameter that acts (token, signature); a subscriber's id is a row key, stored by design.
        for (const [name, value] of new URL(link).searchParams)
          if (name !== 'id' && value.length >= 16) secrets.push(value);
      }
      // Pat confirms from the email; Sam leaves with the one-click POST a mail provider sends (RFC 8058).
      const confirmPat = linksTo.get(emails[0] ?? '')?.find((l) => l.includes('/confirm'));
      if (confirmPat) await followLink(t, confirmPat, visitor);
      const unsubscribeSam = linksTo.get(emails[1] ?? '')?.find((l) => l.includes('/unsubscribe'));
      if (unsubscribeSam) {
        const u = new URL(unsubscribeSam);
        await t.app.inject({
          method: 'POST',
          url: `${u.pathname}${u.search}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        });
      }

      await t.app.jobs.runOnce('visit-flush');
      // A scrape, as Prometheus would make it, after all of that.
      metricsText = (await t.app.inject({ url: metricsPath, headers: { authorization: `Bearer ${metricsToken}` } }))
        .body;
      await t.close();
      await new Promise<void>((r) => log.end(r));
    });

    afterAll(async () => {
      await store.destroy();
      rmSync(dir, { recursive: true, force: true });
    });

    async function tableText(): Promise<string> {
      const reopened = dialect === 'sqlite' ? await openStore(`sqlite:${path.join(dir, 'data/dh.sqlite')}`) : store;
      const parts: string[] = [];
      // Any table of this store, including ones added later: the promise covers them too.
      for (const table of await tablesOf({
        db: reopened.db,
        ...(store.pgSchema ? { pgSchema: store.pgSchema } : {}),
      })) {
        const rows = await reopened.db
          .selectFrom(table as 'settings')
          .selectAll()
          .execute();
        parts.push(`${table}: ${JSON.stringify(rows)}`);
      }
      if (reopened !== store) await reopened.close();
      return parts.join('\n');
    }

    it('really went through the flow (so the scan means something)', async () => {
      expect(links.filter((l) => l.includes('/confirm'))).toHaveLength(2);
      expect(links.filter((l) => l.includes('/unsubscribe')).length).toBeGreaterThanOrEqual(2);
      expect(secrets.length).toBeGreaterThanOrEqual(4);
      const text = await tableText();
      for (const email of emails) expect(text).toContain(email);
      const reopened = dialect === 'sqlite' ? await openStore(`sqlite:${path.join(dir, 'data/dh.sqlite')}`) : store;
      const subscribers = await reopened.db
        .selectFrom('subscribers')
        .select(['email', 'status', 'country'])
        .orderBy('email')
        .execute();
      // Every beacon was counted, each with the place its address resolved to (then forgotten).
      const visits = await reopened.db.selectFrom('visits').select(['country']).execute();
      if (reopened !== store) await reopened.close();
      expect(subscribers).toEqual([
        { email: emails[0], status: 'confirmed', country: 'GB' },
        { email: emails[1], status: 'unsubscribed', country: expect.any(String) },
      ]);
      expect(visits).toHaveLength(addresses.length);
      expect(visits.map((v) => v.country)).toEqual(expect.arrayContaining(['GB', 'DE']));
      const log = readFileSync(logFile, 'utf8');
      expect(log).toContain('"path":"/signup"');
      expect(log).toContain('Mail written to');
    });

    it('the log holds no client address, no email address, no link token and no secret', () => {
      const log = readFileSync(logFile, 'utf8');
      for (const ip of addresses) expect(log, ip).not.toContain(ip);
      expect(log.match(EMAIL_IN_TEXT)?.[0]).toBeUndefined();
      for (const secret of secrets) expect(log, 'a link token').not.toContain(secret);
      expect(log).not.toContain(appSecret);
      expect(log).not.toContain(metricsToken);
      expect(log).not.toMatch(/token=|sig=/);
    });

    it('every request line carries its request id, and no header (no address, agent or token)', () => {
      const lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const requestLines = lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
      expect(requestLines.length).toBeGreaterThan(10);
      for (const line of requestLines) {
        expect(line.reqId, JSON.stringify(line)).toMatch(/^req-/);
        expect(JSON.stringify(line)).not.toMatch(/remoteAddress|user-agent|authorization|Mozilla/i);
      }
    });

    it('the metrics hold no client address, email address, agent, link token or secret', () => {
      expect(metricsText).toContain('dh_signups_total{outcome="created"} 2');
      for (const ip of addresses) expect(metricsText, ip).not.toContain(ip);
      expect(metricsText.match(EMAIL_IN_TEXT)?.[0]).toBeUndefined();
      expect(metricsText).not.toContain('Mozilla');
      for (const secret of [...secrets, appSecret, metricsToken]) expect(metricsText, 'a secret').not.toContain(secret);
    });

    it('no data file holds a client address; link tokens are only in the emails, the secret is in none of them', () => {
      const dataFiles = [...files(path.join(dir, 'data'))];
      expect(dataFiles.some((f) => f.endsWith('.eml'))).toBe(true);
      if (dialect === 'sqlite') expect(dataFiles.some((f) => f.endsWith('.sqlite'))).toBe(true);
      for (const file of dataFiles) {
        const bytes = readFileSync(file);
        for (const ip of addresses) expect(bytes.includes(Buffer.from(ip)), `${ip} in ${file}`).toBe(false);
        // The link-key ring keeps the secret that signed links before it existed, encrypted under
        // the data key (docs/decisions/0031-data-key-and-erasure-ledger.md): no file holds it.
        expect(bytes.includes(Buffer.from(appSecret)), `APP_SECRET in ${file}`).toBe(false);
        if (!file.endsWith('.eml'))
          for (const secret of secrets)
            expect(bytes.includes(Buffer.from(secret)), `a link token in ${file}`).toBe(false);
      }
    });

    it('no table holds a client address or a link token (confirm tokens are stored hashed)', async () => {
      const text = await tableText();
      for (const ip of addresses) expect(text, ip).not.toContain(ip);
      for (const secret of secrets) expect(text, 'a link token').not.toContain(secret);
    });
  });
}
