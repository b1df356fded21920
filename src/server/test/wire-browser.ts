import { httpRequest, type RawResponse } from '../../../bench/lib/http.ts';
import { adminApiPaths, API_PREFIX, apiPaths, pagePaths } from '../../shared/paths.ts';
import { xsrf } from '../../shared/xsrf.ts';
import { totpCode } from '../features/operators/totp.ts';
import { CHROME_UA, PASSWORD, type TestOperator } from './admin-kit.ts';

/**
 * A browser over real sockets, for tests of a server in another process (or listening on a port):
 * a cookie jar, same-origin headers, the XSRF token on writes, and its own loopback source address
 * (any of 127.0.0.0/8 on Linux), so that one test can be many clients. `origin` is the server's
 * address; `siteOrigin` what the pages are served as (PUBLIC_URL), when that differs.
 */
export class WireBrowser {
  private readonly jar = new Map<string, string>();
  constructor(
    private readonly origin: string,
    readonly address = '127.0.0.1',
    private readonly siteOrigin = origin,
  ) {}

  private keep(res: RawResponse): void {
    for (const line of res.headers['set-cookie'] ?? []) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  /** The same browser's cookies at another instance (whose PUBLIC_URL is its own address). */
  at(origin: string): WireBrowser {
    const other = new WireBrowser(origin, this.address);
    for (const [k, v] of this.jar) other.jar.set(k, v);
    return other;
  }

  async send(
    method: 'GET' | 'POST',
    path: string,
    body?: { json: unknown } | { form: Record<string, string> },
    extraHeaders: Record<string, string> = {},
  ): Promise<RawResponse> {
    const token = this.jar.get(xsrf.hostCookie) ?? this.jar.get(xsrf.cookie);
    const headers: Record<string, string> = {
      'user-agent': CHROME_UA,
      'sec-fetch-site': 'same-origin',
      origin: this.siteOrigin,
      referer: `${this.siteOrigin}/`,
      accept: path.startsWith(API_PREFIX) || (body && 'json' in body) ? 'application/json' : 'text/html',
      ...(this.jar.size ? { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      ...(method === 'POST' && token ? { [xsrf.header]: token } : {}),
      ...extraHeaders,
    };
    let payload: string | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body.form).toString();
    }
    const res = await httpRequest(`${this.origin}${path}`, {
      method,
      headers,
      body: payload,
      localAddress: this.address,
      timeoutMs: 20_000,
    });
    this.keep(res);
    return res;
  }

  /** The CSRF cookies a page's form fetches before its first write. */
  async csrf(): Promise<void> {
    const res = await this.send('GET', apiPaths.csrf);
    if (res.status !== 204) throw new Error(`GET ${apiPaths.csrf} answered ${res.status}`);
  }

  /** What the page's form does: fetch the CSRF cookies (once), then post JSON. */
  async signUp(email: string): Promise<RawResponse> {
    // Over HTTPS the app names its cookie with the __Host- prefix.
    if (!this.jar.has(xsrf.cookie) && !this.jar.has(xsrf.hostCookie)) await this.csrf();
    return this.send('POST', pagePaths.signup, { json: { name: 'Holder', email } });
  }

  /** Signs `operator` in with their password and the code their authenticator shows now. */
  async signIn(operator: TestOperator): Promise<void> {
    await this.csrf();
    const first = await this.send('POST', adminApiPaths.signIn, {
      json: { email: operator.email, password: PASSWORD },
    });
    if (first.status !== 200) throw new Error(`sign-in answered ${first.status}: ${first.body.toString()}`);
    const code = totpCode(operator.secret, new Date());
    const second = await this.send('POST', adminApiPaths.secondFactor, { json: { method: 'totp', code } });
    if (second.status !== 200) throw new Error(`second factor answered ${second.status}: ${second.body.toString()}`);
  }
}
