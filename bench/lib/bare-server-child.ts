// Child process started by startBareServer() (processes.ts): reads the body from stdin, then
// answers every request with it. Kept to the minimum node:http needs so that it marks the ceiling.
import http from 'node:http';

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const port = Number(process.env.BARE_PORT);
const status = Number(process.env.BARE_STATUS ?? '200');
const configured = JSON.parse(process.env.BARE_HEADERS ?? '{}') as Record<string, string>;
const body = await readStdin();
// A 204 or 304 carries no body and, per RFC 9110, no Content-Length either (Fastify sends none).
const headers =
  status === 204 || status === 304 ? configured : { ...configured, 'content-length': String(body.length) };
const payload = status === 204 || status === 304 ? undefined : body;

const server = http.createServer((req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : payload);
    return;
  }
  // POST benches: read the request body as a real handler must before it can answer.
  req.resume();
  req.on('end', () => res.writeHead(status, headers).end(payload));
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(port, '127.0.0.1');
