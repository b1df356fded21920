import { signupAnswers } from '../../../content/messages/en/signup.ts';
import { apiPaths, healthPaths, pagePaths } from '../../shared/paths.ts';
import { xsrf } from '../../shared/xsrf.ts';
import type { Store } from '../store/database.ts';
import { startBuiltServer, type ServerHandle } from './processes.ts';

// What the fault tests share: the production build in a child process (so it can be killed or
// starved for real), sign-ups posted over HTTP as the hydrated form posts them, and the checks
// made in the database afterwards. docs/decisions/0020-faults.md

/**
 * The protections a real sign-up passes stay on; only the two that would refuse a load client
 * are relaxed, as in the sign-up bench: the time trap and the per-client rate limit (every
 * request comes from 127.0.0.1).
 */
export const LOAD_ENV = { SIGNUP_MIN_FILL_SECONDS: '0', SIGNUP_RATE_LIMIT: '100000000', LOG_LEVEL: 'warn' };

/** The built server (dist/), as `npm start` runs it, on the given database. */
export function startServer(env: Record<string, string>): Promise<ServerHandle> {
  return startBuiltServer({ ...LOAD_ENV, ...env });
}

/** Resolves when `check` holds (polled), or rejects after `timeoutMs`: no fixed sleeps. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What a browser holds after loading the page: the CSRF cookies and the token for the header. */
export interface Visitor {
  origin: string;
  cookie: string;
  token: string;
}

export async function visitorOf(origin: string): Promise<Visitor> {
  const res = await fetch(`${origin}${apiPaths.csrf}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .join('; ');
  const token = new RegExp(`(?:^|; )${xsrf.cookie}=([^;]*)`).exec(cookie)?.[1];
  if (res.status !== 204 || !token)
    throw new Error(`GET ${apiPaths.csrf} answered ${res.status} without the XSRF cookie`);
  return { origin, cookie, token };
}

export interface SignupAnswer {
  status: number;
  retryAfter: string | null;
  body: { message?: string; error?: { code: string; message: string } };
  ms: number;
}

/** One sign-up as the hydrated form sends it: JSON, same origin, the CSRF cookies and header. */
export async function postSignup(visitor: Visitor, email: string, timeoutMs = 10_000): Promise<SignupAnswer> {
  const started = performance.now();
  const res = await fetch(`${visitor.origin}${pagePaths.signup}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      'sec-fetch-site': 'same-origin',
      origin: visitor.origin,
      referer: `${visitor.origin}/`,
      cookie: visitor.cookie,
      [xsrf.header]: visitor.token,
    },
    body: JSON.stringify({ name: 'Fault', email }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as SignupAnswer['body'];
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: performance.now() - started };
}

/** A sign-up the server acknowledged: stored, as the page tells the visitor. */
export const isAck = (answer: SignupAnswer): boolean =>
  answer.status === 200 && answer.body.message === signupAnswers.success;

export async function statusOf(url: string, timeoutMs = 5_000): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  await res.arrayBuffer();
  return res.status;
}

export const readyStatus = (origin: string): Promise<number> => statusOf(`${origin}${healthPaths.ready}`);

export interface LoadRun {
  /** Addresses the server acknowledged. */
  acked: string[];
  /** Requests that got no answer (the process died under them) or an answer that is not an ack. */
  unanswered: number;
  refused: number;
  /** Stops the load and resolves once every client loop has ended. */
  stop(): Promise<void>;
}

/**
 * Sign-ups from `concurrency` clients in a loop, each with an address of its own, until stopped
 * or until the server stops answering (a loop ends at its first failed request).
 */
export function signupLoad(visitor: Visitor, opts: { concurrency: number; prefix: string }): LoadRun {
  let stopped = false;
  let sequence = 0;
  const run: LoadRun = {
    acked: [],
    unanswered: 0,
    refused: 0,
    async stop() {
      stopped = true;
      await loops;
    },
  };
  const loop = async () => {
    while (!stopped) {
      const email = `${opts.prefix}${++sequence}@example.com`;
      try {
        const answer = await postSignup(visitor, email);
        if (isAck(answer)) run.acked.push(email);
        else run.refused++;
      } catch {
        run.unanswered++;
        return;
      }
    }
  };
  const loops = Promise.all(Array.from({ length: opts.concurrency }, loop));
  return run;
}

/** Of `emails`, those without a subscriber row or without a confirmation email queued for it. */
export async function missingSignups(
  store: Store,
  emails: readonly string[],
): Promise<{ subscriber: string[]; outbox: string[] }> {
  const found = new Map<string, boolean>();
  for (let i = 0; i < emails.length; i += 500) {
    const rows = await store.db
      .selectFrom('subscribers as s')
      .leftJoin('outbox as o', (join) => join.onRef('o.subscriber_id', '=', 's.id').on('o.kind', '=', 'confirmation'))
      .select(['s.email_key', 'o.id as outbox_id'])
      .where(
        's.email_key',
        'in',
        emails.slice(i, i + 500).map((e) => e.toLowerCase()),
      )
      .execute();
    for (const r of rows) found.set(r.email_key, found.get(r.email_key) === true || r.outbox_id !== null);
  }
  return {
    subscriber: emails.filter((e) => !found.has(e.toLowerCase())),
    outbox: emails.filter((e) => found.get(e.toLowerCase()) === false),
  };
}
