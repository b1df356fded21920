import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath } from '../../lib/fast-paths.ts';
import type { HeadersFor } from '../../plugins/security-headers.ts';
import { type MemoryFile, pickEncoding } from './memory-file.ts';

// A locale's home page answered before Fastify (issue 40; the proof route's fast path, decision
// 0049, is the model): half a launch's requests are these few bytes from memory, and Fastify's
// routing and hook chain cost more than the answer. It takes only a plain GET of the exact path,
// with no query string and no body; an invite link (?invite=), HEAD, anything else goes to the
// route untouched, so those answers are the route's by construction. What it sends is what
// sendMemoryFile sends for the page, header for header, in the same order
// (page-fast-path.test.ts holds the two side by side).

/** The page's answers, header sets written once: one per coding, and the 304. */
interface Wire {
  br: Record<string, string>;
  gzip: Record<string, string>;
  raw: Record<string, string>;
  notModified: Record<string, string>;
}

function wireOf(file: MemoryFile, security: Record<string, string>): Wire {
  const common = {
    ...security,
    'content-type': file.type,
    'cache-control': 'no-cache',
    vary: 'Accept-Encoding',
    etag: file.etag,
  };
  return {
    br: { ...common, 'content-encoding': 'br', 'content-length': String(file.br.length) },
    gzip: { ...common, 'content-encoding': 'gzip', 'content-length': String(file.gzip.length) },
    raw: { ...common, 'content-length': String(file.raw.length) },
    notModified: common,
  };
}

/**
 * `page` is read at each request, as the route reads it: a page whose words depend on the time (the
 * countdown) is a new file once they change, and its headers are written once per file.
 */
export function pageFastPath(path: string, page: () => MemoryFile, headersFor: HeadersFor): FastPath {
  const security = headersFor(path);
  const wires = new WeakMap<MemoryFile, Wire>();
  return {
    route: path,
    answer(req: IncomingMessage, res: ServerResponse): number {
      const { url, method, headers } = req;
      if (url !== path || method !== 'GET') return 0;
      // A GET with a body is Fastify's to read or refuse.
      if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') return 0;
      const file = page();
      let wire = wires.get(file);
      if (!wire) wires.set(file, (wire = wireOf(file, security)));
      if (headers['if-none-match'] === file.etag) {
        res.writeHead(304, wire.notModified).end();
        return 304;
      }
      const encoding = pickEncoding(headers['accept-encoding']);
      if (encoding === 'br') res.writeHead(200, wire.br).end(file.br);
      else if (encoding === 'gzip') res.writeHead(200, wire.gzip).end(file.gzip);
      else res.writeHead(200, wire.raw).end(file.raw);
      return 200;
    },
  };
}
