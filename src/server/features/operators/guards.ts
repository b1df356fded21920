import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { roleAllows, type OperatorRole } from '../../../shared/admin/roles.ts';
import { BACKGROUND_HEADER, secondFactorSpentMessage, sessionTimes } from '../../../shared/admin/sign-in-schema.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { ForbiddenError } from '../../plugins/write-protection.ts';
import { cookieOptions, findChallenge, loadSession, PENDING_COOKIE, SESSION_COOKIE } from './sessions.ts';

// Who may call an admin endpoint is decided here, on the server, for every request:
// - every /api/admin route refuses a cross-site request (403: Sec-Fetch-Site, else Origin) and a
//   write without the XSRF double-submit token (403) — the console context's own hooks;
// - each route's first onRequest hook is its guard, `requireRole(least, { freshProof })`: a live
//   session (401 otherwise) of an operator whose role is at least `least` (403 `forbidden`), and
//   with freshProof a code or passkey in the last five minutes too (403 `fresh_proof_required`).
//   No route file writes it: the console plugin makes it from the route's contract, which names the
//   role and whether fresh proof is needed (src/shared/admin/contracts.ts,
//   src/server/features/console/route-guards.ts). A route open to everyone (only the sign-in
//   steps) has `config.adminPublic`, which the plugin sets from a contract whose role is 'public'.
//   A console route with neither stops the server from starting (`checkAdminRoute`). Roles:
//   src/shared/admin/roles.ts, decision 0028.

export interface SignedInOperator {
  id: string;
  email: string;
  /** The session's public id. */
  sessionId: string;
  freshProofAt: Date | null;
  role: OperatorRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireRole; null on a route open to everyone. */
    operator: SignedInOperator | null;
  }
  interface FastifyContextConfig {
    /** The few console endpoints that answer without a session (the sign-in steps). */
    adminPublic?: boolean;
    /**
     * false for an endpoint only ever polled by a view on its own (the live visitor count): its
     * requests never renew the session's idle expiry. Other polling says so per request with the
     * BACKGROUND_HEADER (decision 0029).
     */
    renewsSession?: boolean;
  }
}

const signedOutMessage = 'You are signed out, or your session has ended. Please sign in again.';
const freshProofMessage = 'Please enter a code from your authenticator app to confirm this.';

/** Loads the cookie's live session onto the request, or answers 401 (and clears the dead cookie). */
async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInOperator | null> {
  if (request.operator) return request.operator;
  const token = request.cookies[SESSION_COOKIE];
  // Background traffic does not keep a session alive: a console left open on a polling view
  // still ends after 30 idle minutes. Trusting the header is safe: it can only withhold renewal.
  const background = request.routeOptions.config.renewsSession === false || request.headers[BACKGROUND_HEADER] === '1';
  const session = token
    ? await loadSession(request.server.store.db, token, request.server.clock(), { renew: !background })
    : null;
  if (!session) {
    if (token) reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    await reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', signedOutMessage));
    return null;
  }
  request.operator = {
    id: session.operatorId,
    email: session.email,
    sessionId: session.id,
    freshProofAt: session.freshProofAt,
    role: session.role,
  };
  return request.operator;
}

const pendingTimedOutMessage = 'Your sign-in has timed out. Please enter your email and password again.';

/**
 * The sign-in waiting for its second factor (the pending cookie's, while it lives), for the
 * second-factor steps; otherwise answers 401 in words, clears the dead cookie and returns null.
 */
export async function pendingSignIn(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ token: string; challenge: NonNullable<Awaited<ReturnType<typeof findChallenge>>> } | null> {
  const token = request.cookies[PENDING_COOKIE];
  const challenge = token ? await findChallenge(request.server.store.db, token, request.server.clock()) : null;
  if (token && challenge && !challenge.spent) return { token, challenge };
  reply.clearCookie(PENDING_COOKIE, cookieOptions(0));
  // Spent: five wrong answers (sign-in/sessions.ts). Said before any back-off, for any factor.
  const message = challenge?.spent ? secondFactorSpentMessage : pendingTimedOutMessage;
  await reply.code(401).header('cache-control', 'no-store').send(apiError('unauthorized', message));
  return null;
}

/** The signed-in operator of a console route (every one but the sign-in steps has a guard). */
export function operatorOf(request: FastifyRequest): SignedInOperator {
  if (!request.operator)
    throw new Error(`${request.method} ${request.url}: no operator (is its contract's role 'public'?)`);
  return request.operator;
}

/** The fresh proof's end, for a session (null when there is none). */
export const freshProofUntil = (at: Date | null): Date | null =>
  at ? new Date(at.getTime() + sessionTimes.freshProofMs) : null;

/** Whether the operator entered an authenticator code (or used a passkey) in the last five minutes. */
export const hasFreshProof = (request: FastifyRequest): boolean => {
  const until = freshProofUntil(request.operator?.freshProofAt ?? null);
  return until !== null && until.getTime() > request.server.clock().getTime();
};

/** 403 `fresh_proof_required`: the console answers it with its fresh-proof prompt and repeats the request. */
export const askForFreshProof = (reply: FastifyReply) =>
  reply.code(403).header('cache-control', 'no-store').send(apiError('fresh_proof_required', freshProofMessage));

const roleNames: Record<OperatorRole, string> = { viewer: 'a viewer', sender: 'a sender', owner: 'an owner' };

// Every hook requireRole made, so a guard can be told from any other hook.
const guards = new WeakSet<onRequestHookHandler>();

/** Whether a hook is a role guard (made by requireRole). */
export const isRoleGuard = (hook: unknown): boolean =>
  typeof hook === 'function' && guards.has(hook as onRequestHookHandler);

/**
 * onRequest: a live session (401 otherwise) of an operator whose role is at least `least` (403
 * `forbidden` otherwise, saying which role would do); with `freshProof`, an authenticator code in
 * the last five minutes too (403 `fresh_proof_required`).
 */
export function requireRole(least: OperatorRole, opts: { freshProof?: boolean } = {}): onRequestHookHandler {
  const guard: onRequestHookHandler = async function guard(request, reply) {
    const operator = await signedIn(request, reply);
    if (!operator) return;
    if (!roleAllows(operator.role, least)) {
      await reply
        .code(403)
        .header('cache-control', 'no-store')
        .send(
          apiError(
            'forbidden',
            `This needs ${roleNames[least]} of the console; you are ${roleNames[operator.role]}. An owner can change roles with npm run operator -- role.`,
          ),
        );
      return;
    }
    if (opts.freshProof && !hasFreshProof(request)) await askForFreshProof(reply);
  };
  guards.add(guard);
  return guard;
}

/** onRoute: every console route lives under /api/admin and has a guard first, or the start fails. */
export function checkAdminRoute(route: RouteOptions): void {
  const where = `${String(route.method)} ${route.url}`;
  if (!route.url.startsWith(apiPaths.admin)) {
    throw new Error(`Console route ${where} must live under ${apiPaths.admin} (name it in adminApiPaths).`);
  }
  if (route.config?.adminPublic) return;
  const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
  if (!isRoleGuard(hooks[0])) {
    throw new Error(
      `Console route ${where} has no role guard: give it a contract in src/shared/admin/contracts.ts ` +
        "with its least role ('viewer' | 'sender' | 'owner', or 'public' to answer without a session).",
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
