import net, { type Socket } from 'node:net';

// A TCP proxy a test puts between the server and PostgreSQL, to take the database away the way a
// network does. Written by hand: what it must do (go silent without closing anything) is exactly
// what well-kept proxies are built not to do, and it is forty lines of node:net.

export interface TcpProxy {
  port: number;
  /**
   * The network goes silent: every connection open now, and every one made later, is accepted
   * and kept open but nothing is forwarded either way. Nobody is told (no FIN, no RST): the
   * nastiest failure, which only a timeout can detect.
   */
  blackhole(): void;
  /**
   * New connections are forwarded again. The silent ones stay silent for ever, as after a
   * firewall forgot them: the server must give them up by itself.
   */
  restore(): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream?: Socket;
  silent: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let silent = false;
  const links = new Set<Link>();
  // Whatever arrives on a silent link is read and dropped, so neither side ever sees back-pressure.
  const swallow = (socket: Socket) => {
    socket.removeAllListeners('data');
    socket.resume();
  };
  const server = net.createServer((client) => {
    const link: Link = { client, silent };
    links.add(link);
    client.on('error', () => undefined);
    client.on('close', () => {
      links.delete(link);
      link.upstream?.destroy();
    });
    if (link.silent) return swallow(client);
    const upstream = net.connect(target.port, target.host);
    link.upstream = upstream;
    upstream.on('error', () => undefined);
    // The database closing a link is passed on, unless the link is silent: then nothing is.
    upstream.on('close', () => {
      if (!link.silent) client.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port');

  return {
    port: address.port,
    blackhole() {
      silent = true;
      for (const link of links) {
        if (link.silent) continue;
        link.silent = true;
        if (link.upstream) {
          link.client.unpipe(link.upstream);
          link.upstream.unpipe(link.client);
          swallow(link.upstream);
        }
        swallow(link.client);
      }
    },
    restore() {
      silent = false;
    },
    close() {
      for (const link of links) {
        link.client.destroy();
        link.upstream?.destroy();
      }
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
