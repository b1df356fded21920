// Child process started by startWireCounters() (wire-counters.ts): counting proxies in front of
// Redis and PostgreSQL (src/server/test/wire-counter.ts), in a process of their own so the load
// generator does not also carry the proxying. GET /counts answers what each has counted so far
// and on which port it listens; POST /reset starts the counts from zero.
import http from 'node:http';
import { startWireCounter, type WireProtocol } from '../../src/server/test/wire-counter.ts';

const targets = JSON.parse(process.env.WIRE_TARGETS ?? '[]') as {
  protocol: WireProtocol;
  host: string;
  port: number;
}[];
const counters = await Promise.all(targets.map((t) => startWireCounter(t.protocol, t)));

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/reset') {
    for (const c of counters) c.reset();
    res.writeHead(204).end();
    return;
  }
  const body = counters.map((c, i) => {
    const { requests, byName } = c.counts();
    return { protocol: targets[i]?.protocol, port: c.port, requests, byName: Object.fromEntries(byName) };
  });
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});

const shutdown = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  void Promise.all(counters.map((c) => c.close()));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(Number(process.env.WIRE_PORT), '127.0.0.1');
