import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { siteContent } from '../../../content/site-content.ts';
import { parseSiteContent } from '../../shared/content-schema.ts';
import { geoLookupFrom, openGeoDatabases, type GeoDatabases } from '../geo/geo-lookup.ts';
import { buildApp, type AppDeps } from '../app.ts';
import { loadEnv } from '../env.ts';
import type { Mailer, MailMessage } from '../features/mail/index.ts';
import { hasSiteBuild, loadSiteBuild, type SiteBuild } from '../features/site/site-build.ts';
import type { Store } from '../store/database.ts';
import { sourceSiteBuild } from './source-build.ts';
import { openTestStore, testClock, type TestStore } from './test-store.ts';

// Server tests build the real app on the page rendered from source (source-build.ts: no build
// needed, and an edited section shows at once) and a real throwaway database. The few tests about
// the built files themselves use realSiteBuild(); global-setup.ts builds dist/ when it is missing.
const distDir = path.resolve(import.meta.dirname, '../../../dist');
let fromSource: Promise<SiteBuild> | undefined;
let built: Promise<SiteBuild> | undefined;

// The real shipped geo databases (about half a second to open), opened once per worker: test
// files share this module (vitest.config.ts, isolate: false).
let geoDbs: Promise<GeoDatabases> | undefined;
export function testGeo(options: Parameters<typeof geoLookupFrom>[1] = {}) {
  const dbs = (geoDbs ??= openGeoDatabases());
  return dbs.then((opened) => geoLookupFrom(opened, options));
}

/** The page as the source renders it now, with stand-ins for the browser's bundles. */
export function testSiteBuild(): Promise<SiteBuild> {
  fromSource ??= sourceSiteBuild();
  return fromSource;
}

/** `npm run build`'s output in dist/, for the tests about the built files themselves. */
export function realSiteBuild(): Promise<SiteBuild> {
  if (!hasSiteBuild(distDir))
    throw new Error('No build in dist/: run `npm run build` before the tests of the built site.');
  built ??= loadSiteBuild(distDir);
  return built;
}

/** A mailer that keeps what it was asked to send, and can be told to fail. */
export function memoryMailer() {
  const sent: MailMessage[] = [];
  let failing: Error | null = null;
  const mailer: Mailer & { sent: MailMessage[]; fail(error: Error | null): void } = {
    sent,
    description: 'memory',
    fail(error) {
      failing = error;
    },
    async send(m) {
      if (failing) throw failing;
      sent.push(m);
    },
    close() {},
  };
  return mailer;
}

/** The shipped content file with the wallet in allowlist mode (chain 1), for buildTestApp's `content`. */
export const allowlistContent = () => parseSiteContent({ ...siteContent, wallet: { mode: 'allowlist', chainId: 1 } });

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  clock: ReturnType<typeof testClock>;
  close(): Promise<void>;
}

export async function buildTestApp(
  opts: {
    env?: Record<string, string>;
    store?: TestStore;
    /** A mailer to inject; 'from-env' builds the real one from env (SMTP_URL or OUTBOX_DIR). */
    mailer?: Mailer | 'from-env';
    clock?: ReturnType<typeof testClock>;
    logStream?: NodeJS.WritableStream;
    /** Sees every route as it is added (the authorisation sweep walks the route table with it). */
    onRoute?: AppDeps['onRoute'];
    /** The page from source by default; realSiteBuild() for tests of the built files. */
    build?: SiteBuild;
    sns?: AppDeps['sns'];
    /** The content file as parsed (e.g. the wallet in allowlist mode); the shipped one by default. */
    content?: AppDeps['content'];
  } = {},
): Promise<TestApp> {
  const store = opts.store ?? (await openTestStore('sqlite'));
  const clock = opts.clock ?? testClock();
  const app = await buildApp({
    env: loadEnv({
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'https://dh.example',
      DATA_KEY: process.env.DATA_KEY,
      // An erasure appends to the ledger file: a test's goes to a folder of its own, not data/.
      ERASURE_LEDGER: path.join(mkdtempSync(path.join(os.tmpdir(), 'dh-ledger-')), 'erasure-ledger'),
      // The overload guard off unless a test is about it (health.test.ts sets both): test files
      // share a worker (isolate: false), so the heap it measures is every earlier file's too, and
      // on a busy machine the event loop of a worker can lag past a second; either turned a test's
      // POST into a 503 "very busy" that had nothing to do with what it tested.
      OVERLOAD_HEAP_MB: '0',
      OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
      ...opts.env,
    }),
    build: opts.build ?? (await testSiteBuild()),
    store,
    geo: await testGeo(),
    ...(opts.mailer === 'from-env' ? {} : { mailer: opts.mailer ?? memoryMailer() }),
    clock,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    ...(opts.onRoute ? { onRoute: opts.onRoute } : {}),
    ...(opts.sns ? { sns: opts.sns } : {}),
    ...(opts.content ? { content: opts.content } : {}),
  });
  return {
    app,
    store,
    clock,
    async close() {
      await app.close();
      if (!opts.store) await store.destroy();
    },
  };
}
