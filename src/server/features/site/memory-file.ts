import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A response body made once at start-up and kept compressed in memory. Pages are served this way
 * rather than from disk so that a spike costs no file-system or compression work per request.
 */
export interface MemoryFile {
  type: string;
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

export function memoryFile(body: string, type: string): MemoryFile {
  const raw = Buffer.from(body, 'utf8');
  return {
    type,
    raw,
    br: brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    gzip: gzipSync(raw, { level: 9 }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
  };
}

// Only the two codings we store; q=0 means "refused" (RFC 9110 §12.5.3).
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const star = accepted.get('*') ?? 0;
  const br = accepted.get('br') ?? star;
  const gz = accepted.get('gzip') ?? star;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

export function sendMemoryFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: MemoryFile,
  { status = 200, cacheControl = 'no-cache' }: { status?: number; cacheControl?: string } = {},
): FastifyReply {
  reply.header('content-type', file.type).header('cache-control', cacheControl).header('vary', 'Accept-Encoding');
  if (status === 200) {
    reply.header('etag', file.etag);
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  }
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply.code(status);
  if (encoding) return reply.header('content-encoding', encoding).send(encoding === 'br' ? file.br : file.gzip);
  return reply.send(file.raw);
}
