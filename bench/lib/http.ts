import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came off the wire: still brotli/gzip when the server compressed it. */
  body: Buffer;
  /** Status line plus header block, as sent; part of what every response costs on the wire. */
  headerBytes: number;
}

/**
 * Benchmarks must never load anything but this machine; every URL a bench touches goes through
 * here or through `runLoad`, so one check covers them all.
 */
export function assertLocal(url: string): URL {
  const parsed = new URL(url);
  if (parsed.hostname !== '127.0.0.1' || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new Error(`Benchmarks only target http(s)://127.0.0.1, not ${url}`);
  }
  return parsed;
}

/**
 * A plain GET with node:http rather than fetch(): fetch decodes br/gzip transparently, and the
 * compressed byte counts are what we are here to measure.
 */
export function httpGet(url: string, headers: Record<string, string> = {}, timeoutMs = 5_000): Promise<RawResponse> {
  return httpRequest(url, { headers, timeoutMs });
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  /**
   * The loopback address to connect from (any of 127.0.0.0/8 on Linux): one "client" each, so a
   * proxy in front sees several visitors without leaving the machine.
   */
  localAddress?: string;
}

/** One request on its own connection (no agent, so nothing stays open after it). */
export function httpRequest(url: string, opts: RequestOptions = {}): Promise<RawResponse> {
  const { method = 'GET', headers = {}, body, timeoutMs = 5_000, localAddress } = opts;
  const target = assertLocal(url);
  return new Promise((resolve, reject) => {
    // HTTPS on loopback is nginx with a certificate made for the run (bench/lib/cluster.ts): not
    // one any CA signed, and what is tested there is the site, not the certificate's trust.
    const tls = target.protocol === 'https:' ? { rejectUnauthorized: false } : {};
    const request = target.protocol === 'https:' ? https.request : http.request;
    const req = request(
      target,
      { method, headers, agent: false, timeout: timeoutMs, ...tls, ...(localAddress ? { localAddress } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          let headerBytes = `HTTP/${res.httpVersion} ${res.statusCode ?? 0} ${res.statusMessage ?? ''}\r\n`.length + 2;
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            headerBytes += `${res.rawHeaders[i] ?? ''}: ${res.rawHeaders[i + 1] ?? ''}\r\n`.length;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), headerBytes });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** `name=value` pairs of a response's Set-Cookie headers, as a browser would send them back. */
export const cookiesFrom = (res: RawResponse): string =>
  (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0] ?? '').join('; ');
