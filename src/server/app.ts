import formBody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { siteContent } from '../../content/site-content.ts';
import { parseSiteContent } from '../shared/content-schema.ts';
import type { GeoLookup } from './analytics/geo/geo-lookup.ts';
import { VisitRecorder } from './analytics/visit-recorder.ts';
import { registerVisitRoutes } from './analytics/visit-routes.ts';
import { DailySalts } from './analytics/visitor-hash.ts';
import type { Env } from './env.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerWriteProtection } from './http/write-protection.ts';
import { fileMailer, smtpMailer, type Mailer } from './mail/mailer.ts';
import { OutboxWorker } from './mail/outbox-worker.ts';
import { confirmationComposer } from './signups/confirmation-composer.ts';
import { registerSignupRoutes } from './signups/signup-routes.ts';
import { recordConsentWording } from './signups/signup-store.ts';
import type { SiteBuild } from './site/site-build.ts';
import { buildSiteFiles } from './site/site-files.ts';
import { registerSiteRoutes } from './site/site-routes.ts';
import { loadAppSecret } from './store/app-secret.ts';
import type { Store } from './store/database.ts';
import { GroupCommitter } from './store/group-commit.ts';
import { errorText } from './lib/error-text.ts';

export interface AppDeps {
  /** Where visitors are: local databases, optionally a remote service (loaded once, by main). */
  geo: GeoLookup;
  env: Env;
  build: SiteBuild;
  /** Opened and migrated by the caller (main.ts, or a test on a throwaway database). */
  store: Store;
  /** Defaults to SMTP_URL, or .eml files under OUTBOX_DIR when that is unset. */
  mailer?: Mailer;
  /** Injected so tests can fix "now". */
  clock?: () => Date;
  /** Where the log goes (stdout by default); tests read it back. */
  logStream?: NodeJS.WritableStream;
}

export interface AppServices {
  store: Store;
  visits: VisitRecorder;
  salts: DailySalts;
  committer: GroupCommitter;
  worker: OutboxWorker;
  mailer: Mailer;
  secret: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    dh: AppServices;
  }
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

export async function buildApp({ env, build, store, geo, mailer, clock = () => new Date(), logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(env, logStream),
    // Nothing we accept is near Fastify's 1 MiB default; a sign-up is well under 16 KB.
    bodyLimit: 16 * 1024,
    return503OnClosing: true,
    trustProxy: trustProxyOption(env.TRUST_PROXY),
  });
  const content = parseSiteContent(siteContent);
  const files = buildSiteFiles({ build, content, publicUrl: env.PUBLIC_URL, clock });

  const secret = await loadAppSecret(store.db, env.APP_SECRET);
  await recordConsentWording(store.db, clock());

  const mail =
    mailer ??
    (env.SMTP_URL
      ? smtpMailer(env.SMTP_URL, env.MAIL_FROM)
      : fileMailer(env.OUTBOX_DIR, env.MAIL_FROM, (m) => app.log.info(m)));
  const committer = new GroupCommitter(store.db);
  const worker = new OutboxWorker({
    db: store.db,
    dialect: store.dialect,
    mailer: mail,
    clock,
    compose: confirmationComposer({ db: store.db, content, publicUrl: env.PUBLIC_URL, secret }),
    onError: (error, row) =>
      app.log.warn(
        { err: errorText(error), ...(row ? { outboxId: row.id } : {}) },
        row ? 'mail not sent; will retry' : 'outbox not readable; will retry',
      ),
  });
  const visits = new VisitRecorder(store.db, {
    onError: (error) => app.log.warn({ err: errorText(error) }, 'visit counts not written'),
  });
  const salts = new DailySalts(store.db);
  app.decorate('dh', { store, committer, worker, mailer: mail, secret, visits, salts });
  app.addHook('onClose', async () => {
    await worker.stop();
    await committer.idle();
    await visits.flush();
    mail.close();
  });

  registerSecurityHeaders(app, { styleHashes: build.styleHashes, scriptHashes: build.scriptHashes });
  // JSON is built in; urlencoded is the no-JavaScript form. Anything else is refused with 415.
  await app.register(formBody);
  app.removeContentTypeParser('text/plain');
  const protection = await registerWriteProtection(app, { secret, publicUrl: env.PUBLIC_URL, clock });

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'Something went wrong on our side. Please try again in a minute.' });
    }
    return reply.code(status).send({ error: error.message });
  });

  await registerSignupRoutes(app, {
    store,
    committer,
    protection,
    secret,
    publicUrl: env.PUBLIC_URL,
    clock,
    minFillMs: env.SIGNUP_MIN_FILL_SECONDS * 1000,
    ratePerMinute: env.SIGNUP_RATE_LIMIT,
    onMailQueued: () => worker.nudge(),
    locate: (ip) => {
      const place = geo.lookupLocal(ip);
      return { country: place.country, region: place.region, city: place.city };
    },
    renderHomeWithSignup: files.renderHomeWithSignup,
    renderNotice: files.renderNotice,
  });
  await registerVisitRoutes(app, {
    recorder: visits,
    salts,
    geo,
    publicUrl: env.PUBLIC_URL,
    clock,
    sameOrigin: protection.sameOrigin,
    onError: (error) => app.log.warn({ err: errorText(error) }, 'visit not counted'),
  });
  await registerSiteRoutes(app, { build, files });
  return app;
}
