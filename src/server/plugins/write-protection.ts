import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messagesFor } from '../../../content/messages/catalog.ts';
import { defaultLocale } from '../../shared/locales.ts';
import fp from 'fastify-plugin';
import { xsrf } from '../../shared/xsrf.ts';
import { isOwnOrigin } from '../lib/own-origin.ts';

// CSRF follows OWASP's signed double-submit cookie: @fastify/csrf-protection keeps a per-visitor
// secret in an HttpOnly, signed cookie (see visitorCookieNames) and derives the token from it; the token is also
// put in a readable `XSRF-TOKEN` cookie, which our one HTTP helper copies into an
// `X-XSRF-TOKEN` header on every write. A forged token fails against the visitor's own secret.
// On top, every write must come from our own origin (Sec-Fetch-Site / Origin), which is also what
// protects the no-JavaScript form, since static HTML cannot carry a per-visitor token.
// https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html

const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

/**
 * The visitor cookies' names. Over https they carry the `__Host-` prefix: the browser then keeps
 * them only if Secure, for the whole site and for this host alone (no Domain), so a sibling
 * subdomain cannot plant or overwrite them. Plain http (development, the browser tests on
 * http://127.0.0.1) cannot set Secure cookies, so there they go without prefix and without Secure.
 */
export function visitorCookieNames(secure: boolean) {
  return secure
    ? { secret: '__Host-dh_csrf', xsrf: xsrf.hostCookie, loaded: '__Host-dh_t' }
    : // When this visitor first got a page: the sign-up time trap measures from here.
      { secret: '_csrf', xsrf: xsrf.cookie, loaded: 'dh_t' };
}

export interface WriteProtection {
  /**
   * Gives a visitor the CSRF and time-trap cookies, keeping what is still good: a cookie signed
   * with an older key of the ring is re-signed with the newest, one that no key verifies (or none)
   * is replaced. `loadedAt` backdates a new time trap (for a person who has already filled the
   * form in).
   */
  issueVisitorCookies(request: FastifyRequest, reply: FastifyReply, loadedAt?: Date): void;
  /** Milliseconds since this visitor's first page load (signed cookie), or null when unknown. */
  msSincePageLoad(request: FastifyRequest, now: Date): number | null;
  /** preHandler: refuses a write that does not come from our own origin (403). */
  sameOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * preHandler: refuses a write whose X-XSRF-TOKEN does not match the visitor's secret (403,
   * error code FST_CSRF_*; its words are http-errors.ts's `csrf`).
   */
  csrfToken: FastifyInstance['csrfProtection'];
}

/** A write from another site is refused in these words (content/messages/<locale>/http-errors.ts). */
const crossSiteWords = messagesFor(defaultLocale).httpErrors.crossSite;

export class ForbiddenError extends Error {
  statusCode = 403;
  override name = 'ForbiddenError';
}

export const isCsrfError = (error: { code?: string }): boolean => (error.code ?? '').startsWith('FST_CSRF');

declare module 'fastify' {
  interface FastifyInstance {
    protection: WriteProtection;
  }
}

export const writeProtectionPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: string }) => {
    // Secure follows the address visitors use, not request.protocol: behind a TLS proxy without
    // TRUST_PROXY the request looks like plain http, yet the browser is on https.
    const secure = new URL(opts.publicUrl).protocol === 'https:';
    const names = visitorCookieNames(secure);
    // The names of the other scheme's cookies, left from before a move to https: cleared when met.
    const stale = Object.values(visitorCookieNames(!secure));
    const common = { path: '/', sameSite: 'lax', secure, maxAge: COOKIE_MAX_AGE_S } as const;
    const signedOpts = { ...common, httpOnly: true, signed: true } as const;

    await app.register(fastifyCookie, { secret: app.keys.cookieSecrets });
    await app.register(fastifyCsrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: names.secret,
      cookieOpts: signedOpts,
      getToken: (req) => {
        const v = req.headers[xsrf.header];
        return typeof v === 'string' ? v : undefined;
      },
    });

    /** A signed cookie's value if some key of the ring verifies it, and whether to re-sign it. */
    const readSigned = (request: FastifyRequest, name: string) => {
      const raw = request.cookies[name];
      if (!raw) return null;
      const { valid, renew, value } = request.unsignCookie(raw);
      return valid && value !== null ? { value, renew } : null;
    };

    app.decorate('protection', {
      issueVisitorCookies(request, reply, loadedAt) {
        // The CSRF secret: generateCsrf keeps a verified one and replaces a bad one by itself.
        const secret = readSigned(request, names.secret);
        if (secret?.renew) reply.setCookie(names.secret, secret.value, signedOpts);
        const token = reply.generateCsrf(signedOpts);
        // A fresh token every time: it always matches the secret the visitor now holds.
        reply.setCookie(names.xsrf, token, { ...common, httpOnly: false });
        const loaded = readSigned(request, names.loaded);
        const at =
          loaded && Number.isFinite(Number(loaded.value)) ? loaded.value : String((loadedAt ?? app.clock()).getTime());
        if (!loaded || loaded.renew || loaded.value !== at) reply.setCookie(names.loaded, at, signedOpts);
        for (const name of stale) {
          if (request.cookies[name] !== undefined) reply.clearCookie(name, { path: '/' });
        }
      },

      msSincePageLoad(request, now) {
        const loaded = readSigned(request, names.loaded);
        const at = loaded ? Number(loaded.value) : NaN;
        return Number.isFinite(at) ? now.getTime() - at : null;
      },

      async sameOrigin(request) {
        const site = request.headers['sec-fetch-site'];
        if (typeof site === 'string') {
          if (site === 'same-origin') return;
          throw new ForbiddenError(crossSiteWords);
        }
        // Older browsers: fall back to Origin, which every browser sends on a cross-site POST.
        const origin = request.headers.origin;
        if (typeof origin === 'string' && isOwnOrigin(origin, request, opts.publicUrl)) return;
        throw new ForbiddenError(crossSiteWords);
      },

      csrfToken: app.csrfProtection,
    } satisfies WriteProtection);
  },
  {
    name: 'dh-write-protection',
    fastify: '5.x',
    dependencies: ['dh-keys', 'dh-clock'],
    decorators: { fastify: ['keys', 'clock'] },
  },
);
