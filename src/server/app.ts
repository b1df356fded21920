import http from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import pino from 'pino';
import { siteContent } from '../../content/site-content.ts';
import { parseSiteContent, type SiteContent } from '../shared/content-schema.ts';
import { adminFeature } from './features/console/index.ts';
import { allowlistFeature, allowlistOptionsOf } from './features/allowlist/index.ts';
import { broadcastPolicyOf } from './features/broadcast/index.ts';
import { analyticsFeature } from './features/analytics/index.ts';
import type { Env } from './env.ts';
import { geoPlugin } from './geo/geo-plugin.ts';
import type { GeoLookup } from './geo/geo-lookup.ts';
import { mailOptionsOf, mailPlugin } from './features/mail/index.ts';
import type { Mailer, SnsOptions } from './features/mail/index.ts';
import { clockPlugin, keysPlugin, storePlugin } from './plugins/core.ts';
import { healthPlugin } from './plugins/health.ts';
import { clientErrorHandler, frameworkErrorHandler, httpContractPlugin } from './plugins/http-contract.ts';
import { trustProxyFn } from './lib/client-address.ts';
import { FastPaths } from './lib/fast-paths.ts';
import { RequestLog } from './lib/request-log.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { redisPlugin } from './plugins/redis.ts';
import { securityHeadersFor, securityHeadersPlugin } from './plugins/security-headers.ts';
import { writeProtectionPlugin } from './plugins/write-protection.ts';
import { referralCapsOf, referralsFeature } from './features/referrals/index.ts';
import { signupsFeature } from './features/signups/index.ts';
import { pagesPlugin, sendUnreadableAddressPage } from './features/site/index.ts';
import type { SiteBuild } from './features/site/index.ts';
import { siteFeature } from './features/site/index.ts';
import type { Store } from './store/database.ts';
import { erasureLedgerPath, secretBoxFromEnv } from './store/data-keys.ts';
import type { SecretBox } from './store/secret-box.ts';

export interface AppDeps {
  env: Env;
  build: SiteBuild;
  /** Opened and migrated by the caller (main.ts, or a test on a throwaway database), closed by it. */
  store: Store;
  /** Where visitors are: local databases, optionally a remote service (opened once by the caller). */
  geo: GeoLookup;
  /** Defaults to SMTP_URL, or .eml files under OUTBOX_DIR when that is unset. */
  mailer?: Mailer;
  /** The data keys (main.ts resolves them once, for the migrations too); defaults to the env's. */
  secrets?: SecretBox;
  /**
   * The content file as parsed; defaults to content/site-content.ts. Browser tests of the wallet
   * modes pass their own, as they pass a clock (production never does).
   */
  content?: SiteContent;
  /** Injected so tests can fix "now". */
  clock?: () => Date;
  /** Where the log goes (stdout by default); tests read it back. */
  logStream?: NodeJS.WritableStream;
  /**
   * Start the background jobs (outbox, visit flush, retention, audience sums, salt purge, console
   * session purge) when the app is ready.
   * main.ts always does; tests build without them and run a job with `app.jobs.runOnce(name)`.
   */
  runJobs?: boolean;
  /** Called for every route as it is added (tests walk the whole route table with it). */
  onRoute?: (route: RouteOptions) => void;
  /** How SNS signing certificates are fetched and trusted (tests bring their own CA); see mail/sns.ts. */
  sns?: Pick<SnsOptions, 'fetchCert' | 'trustAnchors'>;
}

// The request log never holds a client address or a query string (which may carry tokens):
// the privacy notice promises exactly method, path, status and time taken. A path is cut short so
// a 16 KB request line cannot make a 16 KB log line.
const MAX_LOGGED_PATH = 200;
const loggedPath = (url: string): string => {
  const path = url.split('?')[0] ?? '';
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
};
// One JSON object a line (with Fastify's request id) for log collectors; read by a person at a
// terminal, the same lines pretty-printed (pino-pretty, in pino's worker thread).
const prettyOnTerminal = {
  transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } },
};

// Written by libuv's threads, not by the event loop (issue 40, decision 0067): pino's default writes
// each line to stdout with write(2) on the loop, once per request, and waits 100 ms there whenever
// the pipe is full (a log collector that reads slowly); this one hands its buffer to a write in
// the background and gathers the lines that arrive meanwhile into the next. pino flushes it
// synchronously at exit. Past 16 MB waiting (a collector that stopped reading), lines are dropped
// rather than the memory taken. One per process: every app built here shares fd 1.
const STDOUT_BUFFER_MAX = 16 * 1024 * 1024;
let stdoutLines: ReturnType<typeof pino.destination> | undefined;
const stdoutInBackground = () =>
  (stdoutLines ??= pino.destination({ dest: 1, sync: false, maxLength: STDOUT_BUFFER_MAX }));

const loggerOptions = (env: Env, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] => ({
  level: env.LOG_LEVEL,
  ...(stream ? { stream } : process.stdout.isTTY ? prettyOnTerminal : { stream: stdoutInBackground() }),
  serializers: {
    req: (req: { method: string; url: string }) => ({ method: req.method, path: loggedPath(req.url) }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
});

/**
 * How long a client may take (docs/decisions/0012-limits-logs-and-beacon-budget.md). The largest
 * body we take is 16 KB, which even a 2G phone sends in a few seconds; a connection that is slower
 * than these is either broken or holding a socket on purpose (slowloris).
 */
export const timeouts = {
  /** From the first byte to the end of the headers. Node's default is 60 s. */
  headersMs: 10_000,
  /** From the first byte to the end of the body: the whole request. Unset (no limit) by default. */
  requestMs: 15_000,
  /** A socket with no bytes either way for this long is closed (slow readers, silent clients). */
  idleMs: 30_000,
  /**
   * A kept-alive socket waits this long for the next request: longer than the 60 s idle timeout
   * of common load balancers (AWS ALB, nginx), so they never reuse a socket we are closing.
   * Fastify's default.
   */
  keepAliveMs: 72_000,
  /** How often Node checks the header and request timeouts; its default of 30 s would let a
   * slow request live up to 45 s instead of 15. */
  checkEveryMs: 1_000,
} as const;

/**
 * The whole server as one Fastify app, in the order fastify/demo keeps: infrastructure plugins
 * first (each named, each declaring what it needs), then one plugin per feature. `app.printPlugins()`
 * draws the result; the README keeps a copy as the map of the server.
 *
 * Where new things go (docs/architecture.md, "Where a new thing goes", says it in full):
 * - a route: in its feature's plugin; an admin route is no new plugin but a `register…Routes(api)`
 *   call inside `consoleApi` in console/console-plugin.ts, under adminApiPaths, guarded by its
 *   contract's role (src/shared/admin/contracts.ts);
 * - a kind of email: `app.outbox.registerKind(kind, composer)` in the feature that owns it, plus a
 *   migration if it needs columns;
 * - a background job: `app.jobs.add(...)` in the feature that owns it; started when the app is
 *   ready, stopped in reverse order at close;
 * - a metric: `app.metrics.counter(...)` in the feature's own `…-metrics.ts`, provided under its
 *   key (decision 0034).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { env, build } = deps;
  // Worked out once, and used both by the hook that covers every routed response and by the two
  // handlers Fastify calls outside its hooks (an unreadable URL; a request Node's parser refused).
  const headersFor = securityHeadersFor({
    styleHashes: build.styleHashes,
    scriptHashes: build.scriptHashes,
    publicUrl: env.PUBLIC_URL,
  });
  const fastPaths = new FastPaths();
  // One line a request at most, the same rule for Fastify's routes and the fast paths.
  const requestLog = new RequestLog(env.LOG_REQUESTS === 'on');
  // TRUST_PROXY as the function Fastify reads request.ip with (a hop count included).
  const trust = trustProxyFn(env.TRUST_PROXY);
  const app: FastifyInstance = Fastify({
    logger: loggerOptions(env, deps.logStream),
    logController: requestLog,
    // Nothing we accept is near Fastify's 1 MiB default; a sign-up is well under 16 KB.
    bodyLimit: 16 * 1024,
    // http-contract answers 503 while closing, in the one error shape.
    return503OnClosing: false,
    trustProxy: trust,
    // The server Fastify would make (its timeouts are set here, since Fastify leaves a server it
    // did not make alone), with the fast paths asked first: answers from memory that skip
    // Fastify's routing and hooks and keep what those give (decision 0049).
    serverFactory: (handler) => {
      const server = http.createServer(
        { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
        (req, res) => {
          if (!fastPaths.handle(req, res)) handler(req, res);
        },
      );
      server.requestTimeout = timeouts.requestMs;
      server.keepAliveTimeout = timeouts.keepAliveMs;
      server.setTimeout(timeouts.idleMs);
      return server;
    },
    frameworkErrors: frameworkErrorHandler(headersFor, (request, reply, status) =>
      sendUnreadableAddressPage(request, reply, app.pages, status),
    ),
    clientErrorHandler: clientErrorHandler(headersFor, () => app.log),
  });
  const content = deps.content ?? parseSiteContent(siteContent);
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  // Infrastructure.
  await app.register(clockPlugin, { clock: deps.clock ?? (() => new Date()) });
  await app.register(storePlugin, { store: deps.store });
  await app.register(keysPlugin, { appSecret: env.APP_SECRET, secrets: deps.secrets ?? secretBoxFromEnv(env) });
  await app.register(redisPlugin, {
    url: env.REDIS_URL,
    keyPrefix: env.REDIS_KEY_PREFIX,
    commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
  });
  await app.register(securityHeadersPlugin, { headersFor });
  await app.register(pagesPlugin, { build, content, publicUrl: env.PUBLIC_URL });
  await app.register(httpContractPlugin);
  await app.register(healthPlugin, {
    maxEventLoopDelayMs: env.OVERLOAD_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: env.OVERLOAD_HEAP_MB * 1024 * 1024,
  });
  await app.register(metricsPlugin, { token: env.METRICS_TOKEN });
  await app.register(writeProtectionPlugin, { publicUrl: env.PUBLIC_URL });
  await app.register(rateLimitPlugin);
  await app.register(geoPlugin, { geo: deps.geo });
  await app.register(jobsPlugin, { autoStart: deps.runJobs ?? false });
  await app.register(mailPlugin, {
    ...(deps.mailer ? { mailer: deps.mailer } : {}),
    ...mailOptionsOf(env, deps.sns),
  });

  // Features.
  await app.register(siteFeature, { build, fastPaths, headersFor });
  // Before the sign-ups: they note who came through whose invite link, and decide it at confirmation.
  await app.register(referralsFeature, { caps: referralCapsOf(env), publicUrl: env.PUBLIC_URL, content });
  await app.register(signupsFeature, {
    content,
    publicUrl: env.PUBLIC_URL,
    minFillMs: env.SIGNUP_MIN_FILL_SECONDS * 1000,
    ratePerMinute: env.SIGNUP_RATE_LIMIT,
  });
  await app.register(analyticsFeature, {
    publicUrl: env.PUBLIC_URL,
    retentionDays: env.VISIT_RETENTION_DAYS,
    visitsPerMinute: env.VISIT_RATE_LIMIT,
  });
  await app.register(allowlistFeature, {
    mode: content.wallet.mode,
    ...allowlistOptionsOf(env, content.wallet.chainId),
    minFillMs: env.SIGNUP_MIN_FILL_SECONDS * 1000,
    fastPaths,
    headersFor,
    content,
    publicUrl: env.PUBLIC_URL,
  });
  // Last: the operators' console (its own build in dist/admin; docs/decisions/0013).
  await app.register(adminFeature, {
    distDir: build.distDir,
    erasureLedger: erasureLedgerPath(env),
    siteName: content.name,
    publicUrl: env.PUBLIC_URL,
    broadcastPolicy: broadcastPolicyOf(content, env.PUBLIC_URL),
    mailRatePerSec: env.MAIL_RATE_PER_SEC,
    personalDataDailyAllowance: env.PERSONAL_DATA_DAILY_ALLOWANCE,
    broadcastApprovals: env.BROADCAST_APPROVALS,
    termsVersion: content.presaleTerms.version,
  });
  fastPaths.start({ log: app.log, metrics: app.metrics, requests: requestLog });
  // Closing, the app answers 503 in the one shape from a hook (http-contract.ts): Fastify's to give.
  app.addHook('preClose', (done) => {
    fastPaths.close();
    done();
  });
  return app;
}
