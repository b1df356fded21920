// The sign-up requests a load run sends, as the hydrated form sends them: shared by the sign-up
// bench (one server), the cluster bench (instances behind nginx) and the mail-latency bench.
import type autocannon from 'autocannon';
import { cookiesFrom, httpGet, httpRequest, type RawResponse } from './http.ts';
import type { LoadSummary } from './load.ts';
import { type OpenLoopResult, runOpenLoop } from './open-loop.ts';
import { cpuSeconds } from './processes.ts';
import { loadRun, type LoadShape, progress } from './run.ts';

export const SIGNUP_PATH = '/signup';

// The protections a real sign-up passes stay on; only the two that would refuse a load generator
// are relaxed: the time trap (a person takes seconds to fill the form) and the per-client rate
// limit (every request comes from 127.0.0.1).
export const SIGNUP_ENV = { SIGNUP_MIN_FILL_SECONDS: '0', SIGNUP_RATE_LIMIT: '100000000', LOG_LEVEL: 'warn' };

/** Where the load goes and whose CPU it is charged to. */
export interface SignupTarget {
  origin: string;
  /** The server process, or every instance of a cluster. */
  pid?: number | number[];
}

/** What the hydrated form sends: same-origin, the CSRF cookies and the token header. */
export interface Visitor {
  /** The page's origin, which a browser's fetch sends as Origin and (with the path) as Referer. */
  origin: string;
  cookie: string;
  token: string;
}

export async function visitorOf(server: SignupTarget): Promise<Visitor> {
  const res = await httpGet(`${server.origin}/api/csrf`);
  const cookie = cookiesFrom(res);
  // Over https (nginx in front, bench/lib/cluster.ts) the cookies carry the __Host- prefix.
  const secure = server.origin.startsWith('https:');
  const expected = secure ? ['__Host-dh_csrf', '__Host-XSRF-TOKEN', '__Host-dh_t'] : ['_csrf', 'XSRF-TOKEN', 'dh_t'];
  const token = new RegExp(`(?:^|; )${secure ? '__Host-' : ''}XSRF-TOKEN=([^;]*)`).exec(cookie)?.[1];
  const names = cookie.split('; ').map((c) => c.split('=')[0]);
  if (res.status !== 204 || !token || !expected.every((n) => names.includes(n))) {
    throw new Error(`GET /api/csrf answered ${res.status} with cookies "${cookie}"; the sign-up flow has changed.`);
  }
  return { origin: server.origin, cookie, token };
}

// Every sign-up needs an address of its own, or it would update a row instead of adding one. One
// counter for the whole process, so no two requests ever share one.
let sequence = 0;
export const nextBody = (): string => JSON.stringify({ name: 'Bench', email: `b${++sequence}@example.com` });

// Origin and Referer too, as every browser sends them with the form's fetch: without a Referer
// the server takes a path (a thrown URL error) that no real sign-up takes.
export const headersFor = (visitor: Visitor): Record<string, string> => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  origin: visitor.origin,
  referer: `${visitor.origin}/`,
  cookie: visitor.cookie,
  'x-xsrf-token': visitor.token,
});

export const signupRequests = (visitor: Visitor): autocannon.Request[] => [
  {
    method: 'POST',
    path: SIGNUP_PATH,
    headers: headersFor(visitor),
    setupRequest: (request) => ({ ...request, body: nextBody() }),
  },
];

/** The load run: sign-ups as `visitor` sends them, with the CPU of `sidePids` where given. */
export const loadSignups = (
  server: SignupTarget,
  shape: LoadShape,
  label: string,
  visitor: Visitor,
  sidePids?: () => Promise<number[]>,
): Promise<LoadSummary> =>
  loadRun(label, {
    url: `${server.origin}${SIGNUP_PATH}`,
    requests: signupRequests(visitor),
    ...(server.pid === undefined ? {} : { serverPid: server.pid }),
    ...(sidePids ? { sidePids } : {}),
    ...shape,
  });

/** One sign-up by hand with `body`, so a broken flow fails loudly rather than as 100% 403s. */
export async function probeSignup(server: SignupTarget, visitor: Visitor, body: string): Promise<RawResponse> {
  const res = await httpRequest(`${server.origin}${SIGNUP_PATH}`, {
    method: 'POST',
    headers: headersFor(visitor),
    body,
  });
  if (res.status !== 200) {
    throw new Error(`The probe sign-up answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
  }
  return res;
}

/** One sign-up by hand before the load, with the next address of the sequence. */
export const probe = (server: SignupTarget, visitor: Visitor): Promise<RawResponse> =>
  probeSignup(server, visitor, nextBody());

/** One open-loop run at a share of the capacity a closed loop measured on the same server. */
export interface OpenLoopRow {
  label: string;
  /** The share of the measured capacity this run offered. */
  share: number;
  result: OpenLoopResult;
  /** Server CPU per answer over this run (µs); null where unknown. */
  serverCpuUsPerRequest: number | null;
  /** The bare server's run: the machine's floor, shown beside the targets but not judged. */
  floor?: boolean;
}

/** The shares of capacity the open-loop runs offer: light, the target's, and near the knee. */
export const OPEN_LOOP_SHARES = [0.25, 0.5, 0.8] as const;
export const OPEN_LOOP = { durationSec: 5, connections: 256 };

/**
 * Sign-ups at a constant arrival rate, at each share of `capacity` (sign-ups/s), one after
 * another on the same server, each timed from its intended send time (open-loop.ts).
 */
export async function openLoopSignups(
  server: SignupTarget,
  visitor: Visitor,
  capacity: number,
  label: string,
  shares: readonly number[] = OPEN_LOOP_SHARES,
): Promise<OpenLoopRow[]> {
  const rows: OpenLoopRow[] = [];
  const pids = server.pid === undefined ? [] : [server.pid].flat();
  const cpu = () => {
    const each = pids.map(cpuSeconds);
    return each.every((c) => c !== null) ? each.reduce<number>((a, c) => a + (c ?? 0), 0) : null;
  };
  for (const share of shares) {
    const rate = Math.max(1, Math.round(capacity * share));
    progress(
      `open loop: ${label}, ${rate} sign-ups/s (${Math.round(share * 100)}% of ${Math.round(capacity)}) for ${OPEN_LOOP.durationSec} s`,
    );
    const before = cpu();
    const result = await runOpenLoop({
      url: `${server.origin}${SIGNUP_PATH}`,
      rate,
      ...OPEN_LOOP,
      next: () => ({ method: 'POST', headers: headersFor(visitor), body: nextBody() }),
    });
    const after = cpu();
    const answers = result.status2xx + result.non2xx;
    rows.push({
      label,
      share,
      result,
      serverCpuUsPerRequest:
        before !== null && after !== null && answers > 0 ? ((after - before) * 1e6) / answers : null,
    });
  }
  return rows;
}
