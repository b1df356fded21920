import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorRoles, roleAllows, type OperatorRole } from '../../../shared/admin/roles.ts';
import { adminApiPaths as p, apiPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';

// Which role each console route needs, written down once here and checked against the running
// app: every route under /api/admin must be in this table (a new route is a decision about who
// may call it), and an operator below a route's role is refused with 403 `forbidden` before the
// handler runs, whatever they send. Decision 0028.
const LEAST: Record<string, OperatorRole | 'public'> = {
  [`POST ${p.signIn}`]: 'public',
  [`POST ${p.secondFactor}`]: 'public',
  [`GET ${p.session}`]: 'viewer',
  [`POST ${p.signOut}`]: 'viewer',
  [`POST ${p.freshProof}`]: 'viewer',
  // Passkeys: every operator manages their own (decision 0030).
  [`POST ${p.signInPasskeyOptions}`]: 'public',
  [`POST ${p.freshProofPasskeyOptions}`]: 'viewer',
  [`POST ${p.freshProofPasskey}`]: 'viewer',
  [`GET ${p.passkeys}`]: 'viewer',
  [`POST ${p.passkeys}`]: 'viewer',
  [`POST ${p.passkeyRegistrationOptions}`]: 'viewer',
  [`POST ${p.passkey}`]: 'viewer',
  [`POST ${p.passkeyRemove}`]: 'viewer',
  [`GET ${p.sessions}`]: 'viewer',
  [`POST ${p.endSession}`]: 'viewer',
  [`POST ${p.endAllSessions}`]: 'viewer',
  [`GET ${p.audience}`]: 'viewer',
  [`GET ${p.audienceLive}`]: 'viewer',
  [`GET ${p.broadcasts}`]: 'viewer',
  [`GET ${p.broadcast}`]: 'viewer',
  [`GET ${p.broadcastPreview}`]: 'viewer',
  // The emergency stop: anyone signed in.
  [`POST ${p.broadcastPause}`]: 'viewer',
  [`POST ${p.broadcasts}`]: 'sender',
  [`POST ${p.broadcast}`]: 'sender',
  [`POST ${p.broadcastTest}`]: 'sender',
  [`POST ${p.broadcastSend}`]: 'sender',
  // A second pair of eyes (decision 0028): approving needs fresh proof too; revoking only stops.
  [`POST ${p.broadcastApprove}`]: 'sender',
  [`POST ${p.broadcastRevoke}`]: 'sender',
  [`POST ${p.broadcastResume}`]: 'sender',
  [`POST ${p.broadcastCancel}`]: 'sender',
  [`GET ${p.audit}`]: 'sender',
  [`GET ${p.subscribers}`]: 'sender',
  [`POST ${p.subscribersCsv}`]: 'sender',
  [`POST ${p.subscriberDetails}`]: 'sender',
  [`POST ${p.subscriberResend}`]: 'sender',
  [`POST ${p.subscriberExport}`]: 'sender',
  [`POST ${p.subscriberErase}`]: 'sender',
  // The suppression list (decision 0035): read by senders; lifting one is the owner's, with fresh proof.
  [`GET ${p.suppressions}`]: 'sender',
  [`POST ${p.suppressionLift}`]: 'owner',
  // Its CSV (no address in it): a sender's, with fresh proof, audited.
  [`POST ${p.suppressionsCsv}`]: 'sender',
  // The presale allowlist (decision 0045): wallet addresses are a sender's to read; exporting,
  // freezing (asked by one, approved by another) and reopening need fresh proof.
  [`GET ${p.allowlist}`]: 'sender',
  [`POST ${p.allowlistRemove}`]: 'sender',
  [`POST ${p.allowlistCsv}`]: 'sender',
  [`POST ${p.allowlistFreeze}`]: 'sender',
  [`POST ${p.allowlistFreezeApprove}`]: 'sender',
  [`POST ${p.allowlistReopen}`]: 'sender',
};

let t: TestApp;
const routes: string[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    onRoute: (r: RouteOptions) => {
      for (const method of [r.method].flat())
        if (r.url.startsWith(apiPaths.admin) && method !== 'HEAD') routes.push(`${String(method)} ${r.url}`);
    },
  });
  await t.app.ready();
});
afterAll(() => t.close());

const concrete = (url: string) => url.replace(/:[^/]+/g, 'x');

describe('roles on every console route', () => {
  it('names every /api/admin route in the table of least roles, and nothing else', () => {
    expect(new Set(routes)).toEqual(new Set(Object.keys(LEAST)));
  });

  it.each(operatorRoles)('refuses a %s exactly the routes above their role, with 403 forbidden', async (role) => {
    const op = await makeOperator(t.store.db, `${role}-sweep@example.com`, t.clock(), role);
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    for (const key of routes) {
      const least = LEAST[key];
      if (least === undefined || least === 'public') continue;
      const [method = 'GET', url = ''] = key.split(' ');
      // Skip the calls that would end this client's own session part-way through the sweep.
      if (url === p.signOut || url === p.endAllSessions || url === p.endSession) continue;
      const res = await c.send(method as 'GET' | 'POST', concrete(url), method === 'GET' ? undefined : {});
      const refused = res.statusCode === 403 && (res.json() as { error: { code: string } }).error.code === 'forbidden';
      expect(refused, `${role} ${key}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(!roleAllows(role, least));
    }
  });

  it('says in words which role would do', async () => {
    const op = await makeOperator(t.store.db, 'viewer-words@example.com', t.clock(), 'viewer');
    const c = new ConsoleClient(t.app);
    await c.signIn(op, t.clock());
    const res = await c.get(p.subscribers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toMatch(/needs a sender.*you are a viewer/);
    const session = await c.get(p.session);
    expect(session.json().operator).toEqual({ email: 'viewer-words@example.com', role: 'viewer' });
  });
});
