// The site as it runs in production, on one machine: several built server instances on one
// PostgreSQL (and Redis), behind nginx running the very site file in deploy/nginx.conf. Used by
// the two-instance test (src/server/integration/two-instances.test.ts) and meant for the bench
// table's "sign-ups/s with two instances behind nginx" figure.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BUILT_SERVER,
  builtServerOptions,
  freePort,
  repoRoot,
  type ServerHandle,
  startOnFreePort,
  startServer,
  tempDir,
} from './processes.ts';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const NGINX_SITE_FILE = path.join(repoRoot, 'deploy/nginx.conf');

/** Addresses in deploy/nginx.conf that a local run replaces; each must occur exactly once. */
const SITE_UPSTREAMS = ['127.0.0.1:3001', '127.0.0.1:3002'];
const SITE_LISTEN_HTTP = '\n    listen 80;';
const SITE_LISTEN_TLS = '\n    listen 443 ssl http2;';
// The IPv6 twins: dropped (a test machine's loopback may have no ::1).
const SITE_LISTEN_V6 = ['\n    listen [::]:80;', '\n    listen [::]:443 ssl http2;'];
const SITE_CERT = '/etc/letsencrypt/live/diamondhand.example/fullchain.pem';
const SITE_KEY = '/etc/letsencrypt/live/diamondhand.example/privkey.pem';
const SITE_LOG_DIR = '/var/log/nginx/';
export const OPENSSL = process.env.OPENSSL_PATH ?? '/usr/bin/openssl';

/** Says, in words, what is missing for a cluster run; null when everything is there. */
export function clusterPrerequisites(): string | null {
  if (!existsSync(BUILT_SERVER))
    return `${path.relative(repoRoot, BUILT_SERVER)} is missing: run \`npm run build\` first.`;
  if (!existsSync(NGINX))
    return `nginx is not installed at ${NGINX} (Debian: \`apt-get install nginx\`; or set NGINX_PATH).`;
  if (!existsSync(OPENSSL))
    return `openssl is not installed at ${OPENSSL} (it makes the run's test certificate; Debian: \`apt-get install openssl\`; or set OPENSSL_PATH).`;
  return null;
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(
      `deploy/nginx.conf must contain "${from}" exactly once (the cluster run replaces it); it was changed.`,
    );
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * A self-signed certificate for 127.0.0.1, valid for a day, made for one run: nginx serves the
 * site file's HTTPS server with it. (node:crypto cannot make an X.509 certificate; openssl can.)
 */
export function makeTestCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}

/**
 * deploy/nginx.conf with the upstream servers, the listen addresses, the certificate and the log
 * folder swapped for local ones; everything else (TLS settings, headers, failover, keepalive,
 * limits, allow/deny) is the file as shipped.
 */
export function renderSiteConfig(
  site: string,
  opts: { listenPort: number; httpPort: number; upstreamPorts: number[]; logDir: string; cert: string; key: string },
): string {
  const [first, ...others] = opts.upstreamPorts;
  if (first === undefined || others.length === 0) throw new Error('a cluster needs at least two instances');
  const [firstUpstream, secondUpstream] = SITE_UPSTREAMS as [string, string];
  let text = replaceOnce(site, `server ${firstUpstream} `, `server 127.0.0.1:${first} `);
  // The second instance's line, once per further instance, with the same options.
  const secondLine =
    text.split('\n').find((l) => l.includes(`server ${secondUpstream} `)) ?? `server ${secondUpstream} `;
  text = replaceOnce(
    text,
    secondLine,
    others.map((port) => secondLine.replace(secondUpstream, `127.0.0.1:${port}`)).join('\n'),
  );
  text = replaceOnce(text, SITE_LISTEN_TLS, `\n    listen 127.0.0.1:${opts.listenPort} ssl http2;`);
  text = replaceOnce(text, SITE_LISTEN_HTTP, `\n    listen 127.0.0.1:${opts.httpPort};`);
  for (const line of SITE_LISTEN_V6) text = replaceOnce(text, line, '');
  text = replaceOnce(text, SITE_CERT, opts.cert);
  text = replaceOnce(text, SITE_KEY, opts.key);
  return text.split(SITE_LOG_DIR).join(`${opts.logDir}/`);
}

/** The main nginx.conf around the site file: Debian's essentials, every path inside `prefix`. */
function mainConfig(prefix: string, siteFile: string, extra = ''): string {
  return `# Written by bench/lib/cluster.ts for one local run.
# One process, no master: a SIGKILL from the clean-up then leaves no orphaned worker behind.
master_process off;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    # Debian's compiled-in temp paths are under /var/lib/nginx, which only root may write.
    client_body_temp_path ${prefix}/tmp/body;
    proxy_temp_path ${prefix}/tmp/proxy;
    fastcgi_temp_path ${prefix}/tmp/fastcgi;
    uwsgi_temp_path ${prefix}/tmp/uwsgi;
    scgi_temp_path ${prefix}/tmp/scgi;
    include ${siteFile};
${extra}}
`;
}

export interface ClusterInstance extends ServerHandle {
  /** "host:port" as nginx's access log names it. */
  upstream: string;
}

export interface Cluster {
  /** nginx's HTTPS origin, e.g. https://127.0.0.1:41234: the only address visitors use. */
  url: string;
  /** nginx's plain-HTTP origin (the site file's port 80): it only redirects to `url`. */
  httpUrl: string;
  /** The probe server's origin (plain HTTP), when `probeServer` was given. */
  probeUrl?: string;
  instances: ClusterInstance[];
  nginx: ServerHandle;
  /** The nginx access log's lines so far (format dh_upstream of deploy/nginx.conf). */
  accessLog: () => string[];
  /** How many requests (matching `filter`, if given) each instance answered, by upstream address. */
  answeredBy: (filter?: (line: string) => boolean) => Map<string, number>;
  stop: () => Promise<void>;
}

export interface ClusterOptions {
  /** The one database every instance shares (PostgreSQL, or a SQLite file on this machine). */
  databaseUrl: string;
  redisUrl?: string;
  /** Unset: each instance writes .eml files into the run's own folder. */
  smtpUrl?: string;
  instances?: number;
  /** Added to (and winning over) every instance's environment. */
  env?: NodeJS.ProcessEnv;
  /** Node's own options for every instance (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** The built server each instance runs (default dist/server/main.js), e.g. an older build's copy. */
  server?: string;
  /**
   * The inside of one more nginx `server` block (its `listen` is added, on a free loopback port),
   * beside the site file in the same `http` block: a test's way to use the site file's own maps
   * and zones with what only a test may do (e.g. realip from a header, to be any client address).
   */
  probeServer?: string;
  /** How long each instance may take to answer /readyz (default builtServerOptions' 30 s). */
  startTimeoutMs?: number;
}

/** The upstream address that answered an access-log line: the last one tried. */
export const answeringUpstream = (line: string): string | undefined =>
  /upstream=(\S+)/.exec(line)?.[1]?.split(',').at(-1)?.trim();

/**
 * Starts `instances` (default 2) built servers and nginx in front of them, all on loopback, and
 * resolves once a request through nginx is answered. Everything started dies with stop(), with
 * the bench's clean-up (Ctrl-C, watchdog) and at process exit.
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const missing = clusterPrerequisites();
  if (missing) throw new Error(`The cluster cannot start: ${missing}`);
  const run = tempDir('dh-cluster-');
  const started: ServerHandle[] = [];
  const stopAll = async () => {
    for (const s of started.reverse()) await s.stop();
    run.remove();
  };
  try {
    const listenPort = await freePort();
    const httpPort = await freePort();
    const url = `https://127.0.0.1:${listenPort}`;
    const httpUrl = `http://127.0.0.1:${httpPort}`;
    // One key ring for all: a cookie one instance signs, another must verify.
    const appSecret = randomBytes(32).toString('base64');
    const startInstance = async (i: number): Promise<ClusterInstance> => {
      const handle = await startOnFreePort((port) => ({
        ...builtServerOptions(
          `instance ${i}`,
          port,
          {
            PUBLIC_URL: url,
            TRUST_PROXY: '127.0.0.1',
            APP_SECRET: appSecret,
            DATABASE_URL: opts.databaseUrl,
            OUTBOX_DIR: path.join(run.dir, `outbox-${i}`),
            ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
            ...(opts.smtpUrl ? { SMTP_URL: opts.smtpUrl } : {}),
            ...opts.env,
          },
          opts.nodeArgs,
          opts.server,
        ),
        readyPath: '/readyz',
        ...(opts.startTimeoutMs ? { timeoutMs: opts.startTimeoutMs } : {}),
      }));
      started.push(handle);
      return { ...handle, upstream: `127.0.0.1:${handle.port}` };
    };
    // Side by side, as a deploy restarts them; migrations are already applied or run under a lock.
    // allSettled: when one fails, the others are in `started` before the clean-up below stops them.
    const results = await Promise.allSettled(
      Array.from({ length: opts.instances ?? 2 }, (_, i) => startInstance(i + 1)),
    );
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const instances = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));

    const prefix = run.dir;
    const logDir = path.join(prefix, 'logs');
    mkdirSync(logDir);
    mkdirSync(path.join(prefix, 'tmp'));
    const siteFile = path.join(prefix, 'diamond-hand.conf');
    const { cert, key } = makeTestCertificate(prefix);
    writeFileSync(
      siteFile,
      renderSiteConfig(readFileSync(NGINX_SITE_FILE, 'utf8'), {
        listenPort,
        httpPort,
        upstreamPorts: instances.map((s) => s.port),
        logDir,
        cert,
        key,
      }),
    );
    const mainFile = path.join(prefix, 'nginx.conf');
    const probePort = opts.probeServer ? await freePort() : undefined;
    const probe = opts.probeServer
      ? `    server {\n        listen 127.0.0.1:${probePort};\n        ${opts.probeServer}\n    }\n`
      : '';
    writeFileSync(mainFile, mainConfig(prefix, siteFile, probe));
    const nginx = await startServer({
      name: 'nginx',
      command: NGINX,
      // -e: the start-up error log, which would otherwise be Debian's root-only /var/log/nginx.
      args: [
        '-p',
        prefix,
        '-c',
        mainFile,
        '-e',
        path.join(logDir, 'error.log'),
        '-g',
        `daemon off; pid ${path.join(prefix, 'nginx.pid')};`,
      ],
      // Ready once port 80's server answers (its redirect); the HTTPS one starts with it.
      port: httpPort,
      readyPath: '/healthz',
    });
    started.push(nginx);

    const accessLogFile = path.join(logDir, 'diamond-hand.access.log');
    const accessLog = () =>
      existsSync(accessLogFile) ? readFileSync(accessLogFile, 'utf8').split('\n').filter(Boolean) : [];
    return {
      url,
      httpUrl,
      ...(probePort ? { probeUrl: `http://127.0.0.1:${probePort}` } : {}),
      instances,
      nginx,
      accessLog,
      answeredBy(filter = () => true) {
        const counts = new Map<string, number>(instances.map((s) => [s.upstream, 0]));
        for (const line of accessLog().filter(filter)) {
          const upstream = answeringUpstream(line);
          if (upstream) counts.set(upstream, (counts.get(upstream) ?? 0) + 1);
        }
        return counts;
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
