import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { siteContent } from '../../content/site-content.ts';
import { parseSiteContent } from '../shared/content-schema.ts';
import { adminFeature } from './admin/admin-plugin.ts';
import { analyticsFeature } from './analytics/analytics-plugin.ts';
import type { Env } from './env.ts';
import { geoPlugin } from './geo/geo-plugin.ts';
import type { GeoLookup } from './geo/geo-lookup.ts';
import { mailPlugin } from './mail/mail-plugin.ts';
import type { Mailer } from './mail/mailer.ts';
import { clockPlugin, keysPlugin, storePlugin } from './plugins/core.ts';
import { httpContractPlugin } from './plugins/http-contract.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { writeProtectionPlugin } from './plugins/write-protection.ts';
import { signupsFeature } from './signups/signups-plugin.ts';
import { pagesPlugin } from './site/pages-plugin.ts';
import type { SiteBuild } from './site/site-build.ts';
import { siteFeature } from './site/site-plugin.ts';
import type { Store } from './store/database.ts';

export interface AppDeps {
  env: Env;
  build: SiteBuild;
  /** Opened and migrated by the caller (main.ts, or a test on a throwaway database), closed by it. */
  store: Store;
  /** Where visitors are: local databases, optionally a remote service (opened once by the caller). */
  geo: GeoLookup;
  /** Defaults to SMTP_URL, or .eml files under OUTBOX_DIR when that is unset. */
  mailer?: Mailer;
  /** Injected so tests can fix "now". */
  clock?: () => Date;
  /** Where the log goes (stdout by default); tests read it back. */
  logStream?: NodeJS.WritableStream;
  /**
   * Start the background jobs (outbox, visit flush, retention, salt purge) when the app is ready.
   * main.ts always does; tests build without them and run a job with `app.jobs.runOnce(name)`.
   */
  runJobs?: boolean;
  /** Called for every route as it is added (tests walk the whole route table with it). */
  onRoute?: (route: RouteOptions) => void;
}

// The request log never holds a client address or a query string (which may carry tokens):
// the privacy notice promises exactly method, path, status and time taken.
const loggerOptions = (env: Env, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] => ({
  level: env.LOG_LEVEL,
  ...(stream ? { stream } : {}),
  serializers: {
    req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
});

// A hop count N trusts the N nearest proxies (Fastify's types take it as a function).
const trustProxyOption = (v: Env['TRUST_PROXY']) =>
  typeof v === 'number' ? (_address: string, hop: number) => hop < v : v;

/**
 * The whole server as one Fastify app, in the order fastify/demo keeps: infrastructure plugins
 * first (each named, each declaring what it needs), then one plugin per feature. `app.printPlugins()`
 * draws the result; the README keeps a copy as the map of the server.
 *
 * Where new things go:
 * - a route: in its feature's plugin (admin: a new `admin/` feature under apiPaths.admin);
 * - a kind of email: `app.outbox.registerKind(kind, composer)` in the feature that owns it, plus a
 *   migration if it needs columns;
 * - a background job: `app.jobs.add(...)` in the feature that owns it; started when the app is
 *   ready, stopped in reverse order at close.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { env, build } = deps;
  const app = Fastify({
    logger: loggerOptions(env, deps.logStream),
    // Nothing we accept is near Fastify's 1 MiB default; a sign-up is well under 16 KB.
    bodyLimit: 16 * 1024,
    // http-contract answers 503 while closing, in the one error shape.
    return503OnClosing: false,
    trustProxy: trustProxyOption(env.TRUST_PROXY),
  });
  const content = parseSiteContent(siteContent);
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  // Infrastructure.
  await app.register(clockPlugin, { clock: deps.clock ?? (() => new Date()) });
  await app.register(storePlugin, { store: deps.store });
  await app.register(keysPlugin, { appSecret: env.APP_SECRET });
  await app.register(securityHeadersPlugin, { styleHashes: build.styleHashes, scriptHashes: build.scriptHashes });
  await app.register(pagesPlugin, { build, content, publicUrl: env.PUBLIC_URL });
  await app.register(httpContractPlugin);
  await app.register(writeProtectionPlugin, { publicUrl: env.PUBLIC_URL });
  await app.register(rateLimitPlugin);
  await app.register(geoPlugin, { geo: deps.geo });
  await app.register(jobsPlugin, { autoStart: deps.runJobs ?? false });
  await app.register(mailPlugin, {
    ...(deps.mailer ? { mailer: deps.mailer } : {}),
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    outboxDir: env.OUTBOX_DIR,
  });

  // Features.
  await app.register(siteFeature, { build });
  await app.register(signupsFeature, {
    content,
    publicUrl: env.PUBLIC_URL,
    minFillMs: env.SIGNUP_MIN_FILL_SECONDS * 1000,
    ratePerMinute: env.SIGNUP_RATE_LIMIT,
  });
  await app.register(analyticsFeature, { publicUrl: env.PUBLIC_URL, retentionDays: env.VISIT_RETENTION_DAYS });
  // Last: the operators' console (its own build in dist/admin; docs/decisions/0013).
  await app.register(adminFeature, { distDir: build.distDir, siteName: content.name, publicUrl: env.PUBLIC_URL });
  return app;
}
