// Test helpers for the console's API: a browser-like client (cookie jar, same-origin headers, the
// XSRF token on writes), operators made straight in the store, their codes and passkeys.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { RegistrationOptions } from '../../shared/admin/passkey-schema.ts';
import { adminApiPaths, apiPaths } from '../../shared/paths.ts';
import { xsrf } from '../../shared/xsrf.ts';
import type { OperatorRole } from '../../shared/admin/roles.ts';
import type { Database } from '../store/schema.ts';
import { addOperator } from '../features/operators/index.ts';
import { totpCode } from '../features/operators/totp.ts';
import { SoftwareAuthenticator } from './software-authenticator.ts';
import { testSecrets } from './test-store.ts';

export const PASSWORD = 'correct horse battery staple';
export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface TestOperator {
  email: string;
  secret: string;
  recoveryCodes: string[];
}

/** An operator made straight in the store; an owner unless a role is named. */
export async function makeOperator(
  db: Kysely<Database>,
  email: string,
  now: Date,
  role: OperatorRole = 'owner',
): Promise<TestOperator> {
  const factors = await addOperator(db, email, PASSWORD, now, role, testSecrets());
  return { email, secret: factors.totpSecret, recoveryCodes: factors.recoveryCodes };
}

/** An operator's id, by the address it was made with. */
export const operatorIdOf = async (db: Kysely<Database>, email: string): Promise<string> =>
  (await db.selectFrom('operators').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** The code an authenticator app shows at `at`. */
export const codeAt = (op: TestOperator, at: Date): string => totpCode(op.secret, at);

/** A 6-digit code that is none of the three an authenticator could show around `at`. */
export function wrongCodeAt(op: TestOperator, at: Date): string {
  const near = [-30_000, 0, 30_000].map((d) => codeAt(op, new Date(at.getTime() + d)));
  return ['000000', '000001', '000002', '000003'].find((c) => !near.includes(c)) ?? '000004';
}

/** What the audit log says of each failed sign-in of `email`, in no particular order. */
export async function failedSignIns(db: Kysely<Database>, email: string): Promise<(string | null)[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select('detail')
    .where('action', '=', 'sign-in.failed')
    .where('subject', '=', email)
    .execute();
  return rows.map((r) => r.detail);
}

/** The site a passkey is scoped to: the test app's PUBLIC_URL is https://dh.example. */
export const passkeySite = { origin: 'https://dh.example', rpId: 'dh.example' };

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
  ) {}

  private take(res: LightMyRequestResponse): void {
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const gone = c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  /** The XSRF token cookie: `__Host-` prefixed on https (decision 0011), plain on http. */
  private xsrfToken(): string | undefined {
    return this.cookies.get(xsrf.hostCookie) ?? this.cookies.get(xsrf.cookie);
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** A request as our own console page sends it (same-origin, cookies, XSRF header on writes). */
  async send(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    if (method !== 'GET' && !this.xsrfToken()) this.take(await this.app.inject({ method: 'GET', url: apiPaths.csrf }));
    const opts: InjectOptions = {
      method,
      url,
      headers: {
        'sec-fetch-site': 'same-origin',
        'user-agent': CHROME_UA,
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...(method !== 'GET' ? { [xsrf.header]: this.xsrfToken() ?? '' } : {}),
        ...this.headers,
        ...headers,
      },
      ...(body !== undefined
        ? { payload: body as InjectOptions['payload'] }
        : method === 'POST'
          ? { payload: {} }
          : {}),
    };
    const res = await this.app.inject(opts);
    this.take(res);
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.send('GET', url, undefined, headers);
  post = (url: string, body?: unknown, headers?: Record<string, string>) => this.send('POST', url, body ?? {}, headers);

  password = (email: string, password = PASSWORD) => this.post(adminApiPaths.signIn, { email, password });
  code = (code: string) => this.post(adminApiPaths.secondFactor, { method: 'totp', code });
  recovery = (code: string) => this.post(adminApiPaths.secondFactor, { method: 'recovery', code });

  /** Both steps; throws unless both succeed. */
  async signIn(op: TestOperator, at: Date): Promise<LightMyRequestResponse> {
    const first = await this.password(op.email);
    if (first.statusCode !== 200) throw new Error(`password step: ${first.statusCode} ${first.body}`);
    const second = await this.code(codeAt(op, at));
    if (second.statusCode !== 200) throw new Error(`code step: ${second.statusCode} ${second.body}`);
    return second;
  }
}

/** A new passkey, added by a client signed in with fresh proof. */
export async function addPasskey(c: ConsoleClient, name = 'Work laptop'): Promise<SoftwareAuthenticator> {
  const key = new SoftwareAuthenticator(passkeySite);
  const options = await c.post(adminApiPaths.passkeyRegistrationOptions);
  expect(options.statusCode, options.body).toBe(200);
  const added = await c.post(adminApiPaths.passkeys, {
    name,
    response: key.register(options.json<RegistrationOptions>()),
  });
  expect(added.statusCode, added.body).toBe(200);
  return key;
}
