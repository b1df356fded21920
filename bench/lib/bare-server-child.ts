// Child process started by startBareServer() (processes.ts): reads the body from stdin, then
// answers every request with it. Kept to the minimum node:http needs so that it marks the ceiling.
// With BARE_ROUTES_FILE it answers a mix instead (the headline bench's floor): each request the
// first route whose method and path prefix match, the bytes the app sent for that kind of request.
import { readFileSync } from 'node:fs';
import http from 'node:http';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  payload: Buffer | undefined;
}

// A 204 or 304 carries no body and, per RFC 9110, no Content-Length either (Fastify sends none).
function answerOf(status: number, configured: Record<string, string>, body: Buffer): Answer {
  const empty = status === 204 || status === 304;
  return {
    status,
    headers: empty ? configured : { ...configured, 'content-length': String(body.length) },
    payload: empty ? undefined : body,
  };
}

interface Route extends Answer {
  method: string;
  prefix: string;
}

// PORT too: a cluster run (bench/lib/cluster.ts) starts its instances with PORT, and this server
// can stand in for them behind the same nginx.
const port = Number(process.env.BARE_PORT ?? process.env.PORT);
const routesFile = process.env.BARE_ROUTES_FILE;
const routes: Route[] = routesFile
  ? (
      JSON.parse(readFileSync(routesFile, 'utf8')) as {
        method: string;
        prefix: string;
        status: number;
        headers: Record<string, string>;
        bodyBase64: string;
      }[]
    ).map((r) => ({
      method: r.method,
      prefix: r.prefix,
      ...answerOf(r.status, r.headers, Buffer.from(r.bodyBase64, 'base64')),
    }))
  : [];
const single = routesFile
  ? answerOf(200, {}, Buffer.alloc(0))
  : answerOf(
      Number(process.env.BARE_STATUS ?? '200'),
      JSON.parse(process.env.BARE_HEADERS ?? '{}') as Record<string, string>,
      await readStdin(),
    );

const pick = (req: http.IncomingMessage): Answer => {
  if (routes.length === 0) return single;
  const url = req.url ?? '/';
  return routes.find((r) => r.method === req.method && url.startsWith(r.prefix)) ?? single;
};

const server = http.createServer((req, res) => {
  const answer = pick(req);
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(answer.status, answer.headers).end(req.method === 'HEAD' ? undefined : answer.payload);
    return;
  }
  // POST benches: read the request body as a real handler must before it can answer.
  req.resume();
  req.on('end', () => res.writeHead(answer.status, answer.headers).end(answer.payload));
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(port, '127.0.0.1');
