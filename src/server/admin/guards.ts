import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { apiError } from '../../shared/api-error.ts';
import { sessionTimes } from '../../shared/admin/sign-in-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { ForbiddenError } from '../plugins/write-protection.ts';
import { cookieOptions, loadSession, SESSION_COOKIE } from './sessions.ts';

// Who may call an admin endpoint is decided here, on the server, for every request:
// - every /api/admin route refuses a cross-site request (403: Sec-Fetch-Site, else Origin) and a
//   write without the XSRF double-submit token (403) — the console context's own hooks;
// - each route declares who may call it, as its first onRequest hook: `requireOperator` (a live
//   session) or `requireFreshProof` (and an authenticator code in the last five minutes). A route
//   open to everyone (only the sign-in steps) says so with `config: { adminPublic: true }`. A
//   route that declares neither stops the server from starting (`checkAdminRoute`).
//
//   app.post(adminApiPaths.export, { onRequest: requireFreshProof, schema: {…} }, handler)

export interface SignedInOperator {
  id: string;
  email: string;
  /** The session's public id. */
  sessionId: string;
  freshProofAt: Date | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireOperator / requireFreshProof; null on a route open to everyone. */
    operator: SignedInOperator | null;
  }
  interface FastifyContextConfig {
    /** The few console endpoints that answer without a session (the sign-in steps). */
    adminPublic?: boolean;
  }
}

const signedOutMessage = 'You are signed out, or your session has ended. Please sign in again.';
export const freshProofMessage = 'Please enter a code from your authenticator app to confirm this.';

/** onRequest: a live operator session, or 401 (and the dead cookie is cleared). */
export async function requireOperator(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  const session = token ? await loadSession(request.server.store.db, token, request.server.clock()) : null;
  if (!session) {
    if (token) reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    await reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', signedOutMessage));
    return;
  }
  request.operator = { id: session.operatorId, email: session.email, sessionId: session.id, freshProofAt: session.freshProofAt };
}

/** The signed-in operator of a route behind requireOperator / requireFreshProof. */
export function operatorOf(request: FastifyRequest): SignedInOperator {
  if (!request.operator) throw new Error(`${request.method} ${request.url}: no operator (does the route declare requireOperator?)`);
  return request.operator;
}

/** The fresh proof's end, for a session (null when there is none). */
export const freshProofUntil = (at: Date | null): Date | null => (at ? new Date(at.getTime() + sessionTimes.freshProofMs) : null);

/**
 * onRequest: a live session whose operator entered an authenticator code in the last five minutes
 * (at sign-in or through adminApiPaths.freshProof); otherwise 403 `fresh_proof_required`, which
 * the console answers with its fresh-proof prompt and then repeats the request.
 */
export async function requireFreshProof(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.operator) {
    await requireOperator(request, reply);
    if (reply.sent) return;
  }
  const until = freshProofUntil(request.operator?.freshProofAt ?? null);
  if (!until || until.getTime() <= request.server.clock().getTime()) {
    await reply.code(403).header('cache-control', 'no-store').send(apiError('fresh_proof_required', freshProofMessage));
  }
}

const guards: unknown[] = [requireOperator, requireFreshProof];

/** onRoute: every console route lives under /api/admin and declares a guard, or the start fails. */
export function checkAdminRoute(route: RouteOptions): void {
  const where = `${String(route.method)} ${route.url}`;
  if (!route.url.startsWith(apiPaths.admin)) {
    throw new Error(`Console route ${where} must live under ${apiPaths.admin} (name it in adminApiPaths).`);
  }
  if (route.config?.adminPublic) return;
  const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
  if (!guards.includes(hooks[0])) {
    throw new Error(
      `Console route ${where} declares no guard: give it \`onRequest: requireOperator\` (or requireFreshProof) first, ` +
        'or config.adminPublic if it must answer without a session.',
    );
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const crossSiteMessage = 'The console answers only its own pages.';

/**
 * The console context's hooks, for every route in it: same-origin only (reads too: a cross-site
 * page has no business even probing), then the XSRF token on writes. Both are the write
 * protection the public form uses (src/server/plugins/write-protection.ts), reused.
 */
export function protectConsoleApi(api: FastifyInstance): void {
  const { protection } = api;
  api.addHook('onRequest', async (request, reply) => {
    try {
      await protection.sameOrigin(request, reply);
    } catch (error) {
      if (error instanceof ForbiddenError) throw new ForbiddenError(crossSiteMessage);
      throw error;
    }
  });
  api.addHook('onRequest', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method)) return done();
    protection.csrfToken.call(api, request, reply, done);
  });
  api.addHook('onRoute', checkAdminRoute);
}
