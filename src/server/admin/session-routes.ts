import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { emptyBodySchema } from '../../shared/admin/sign-in-schema.ts';
import { endedReplySchema, endSessionSchema, sessionsReplySchema } from '../../shared/admin/sessions-schema.ts';
import { adminApiPaths } from '../../shared/paths.ts';
import { audit } from './audit.ts';
import { operatorOf, requireRole } from './guards.ts';
import { cookieOptions, endAllSessions, endSession, listSessions, SESSION_COOKIE } from './sessions.ts';

const errors = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };

/** The operator's own sessions: list them, end one, end them all. */
export function registerSessionRoutes(api: FastifyInstance): void {
  const app = api.withTypeProvider<ZodTypeProvider>();
  const db = () => api.store.db;

  app.get(
    adminApiPaths.sessions,
    { onRequest: requireRole('viewer'), schema: { response: { 200: sessionsReplySchema, ...errors } } },
    async (request) => {
      const operator = operatorOf(request);
      const rows = await listSessions(db(), operator.id, api.clock());
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          browser: r.browser,
          createdAt: r.created_at,
          lastSeenAt: r.last_seen_at,
          current: r.id === operator.sessionId,
        })),
      };
    },
  );

  app.post(
    adminApiPaths.endSession,
    { onRequest: requireRole('viewer'), schema: { body: endSessionSchema, response: { 200: endedReplySchema, ...errors } } },
    async (request, reply) => {
      const operator = operatorOf(request);
      const ended = await endSession(db(), operator.id, request.body.id);
      const signedOut = ended > 0 && request.body.id === operator.sessionId;
      if (signedOut) reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
      if (ended > 0) await audit(request, { action: 'session.ended', subject: operator.email, detail: signedOut ? 'this session' : 'another session' });
      return { ended, signedOut };
    },
  );

  // Ending every session, this one included, asks for fresh proof: a stolen session cookie alone
  // must not be able to lock the real operator out.
  app.post(
    adminApiPaths.endAllSessions,
    { onRequest: requireRole('viewer', { freshProof: true }), schema: { body: emptyBodySchema, response: { 200: endedReplySchema, ...errors } } },
    async (request, reply) => {
      const operator = operatorOf(request);
      const ended = await endAllSessions(db(), operator.id);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
      await audit(request, { action: 'sessions.ended-all', subject: operator.email, detail: `${ended} session${ended === 1 ? '' : 's'}` });
      return { ended, signedOut: true };
    },
  );
}
