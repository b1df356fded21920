import type { FastifyInstance } from 'fastify';

import { audit } from '../audit/index.ts';
import { operatorOf } from './guards.ts';
import { cookieOptions, endAllSessions, endSession, listSessions, SESSION_COOKIE } from './sessions.ts';
import { endAllSessionsContract, endSessionContract, sessionsContract } from '../../../shared/admin/contracts.ts';
import { registerContract } from '../../lib/register-contract.ts';

/** The operator's own sessions: list them, end one, end them all. */
export function registerSessionRoutes(api: FastifyInstance): void {
  const db = () => api.store.db;

  registerContract(api, sessionsContract, async (request) => {
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
  });

  registerContract(api, endSessionContract, async (request, reply) => {
    const operator = operatorOf(request);
    const ended = await endSession(db(), operator.id, request.body.id);
    const signedOut = ended > 0 && request.body.id === operator.sessionId;
    if (signedOut) reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    if (ended > 0)
      await audit(request, {
        action: 'session.ended',
        subject: operator.email,
        detail: signedOut ? 'this session' : 'another session',
      });
    return { ended, signedOut };
  });

  // Ending every session, this one included, asks for fresh proof: a stolen session cookie alone
  // must not be able to lock the real operator out.
  registerContract(api, endAllSessionsContract, async (request, reply) => {
    const operator = operatorOf(request);
    const ended = await endAllSessions(db(), operator.id);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(0));
    await audit(request, {
      action: 'sessions.ended-all',
      subject: operator.email,
      detail: `${ended} session${ended === 1 ? '' : 's'}`,
    });
    return { ended, signedOut: true };
  });
}
