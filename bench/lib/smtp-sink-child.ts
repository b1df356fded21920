// Child process started by startSinkProcess() (mail.ts): a real SMTP server on 127.0.0.1 that
// reads and drops each message, in a process of its own so the load generator's event loop does
// not also carry the SMTP sessions (an open loop times each request from its intended send time,
// and a sink sharing that loop would add its own turns to every figure). GET / on the HTTP port
// answers the sink's URL and how many messages it has accepted.
import http from 'node:http';
import { startSmtpSink } from '../../src/server/test/smtp-sink.ts';

let accepted = 0;
const sink = await startSmtpSink(0, undefined, {
  keep: false,
  onAccepted: () => {
    accepted++;
  },
});
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: sink.url, accepted }));
});
const shutdown = () => {
  server.closeAllConnections();
  server.close();
  void sink.close().then(() => process.exit(0));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(Number(process.env.SINK_HTTP_PORT), '127.0.0.1');
