// `npm run bench:allowlist`: allowlist registrations per second (each a Sign-In with Ethereum
// message checked, its signature recovered with secp256k1, its nonce used up and the entry
// stored) on SQLite and on PostgreSQL, and Merkle proofs per second from a frozen snapshot, each
// beside a bare node:http server answering the same requests in the same run. Short runs, with the
// server's CPU time per request (steadier than req/s on a shared machine) and the load average.
// A measurement, not a test: it exits 0 whatever the figures, non-zero only when it could not
// measure. docs/decisions/0045-wallet-allowlist.md
import path from 'node:path';
import { Address, Hex, PersonalMessage, Secp256k1, Signature } from 'ox';
import { freezeSnapshot } from '../src/server/features/allowlist/snapshots.ts';
import { openStore } from '../src/server/store/database.ts';
import { testAccount } from '../src/server/test/test-account.ts';
import { apiPaths, healthPaths } from '../src/shared/paths.ts';
import { fillPath } from '../src/shared/route-contract.ts';
import { xsrf } from '../src/shared/xsrf.ts';
import type { LoadSummary } from './lib/load.ts';
import { createScratchDatabase, postgresBaseUrl, redactUrl } from './lib/postgres.ts';
import { freePort, type ServerHandle, startBareServer, startOnFreePort, tempDir, withServer } from './lib/processes.ts';
import { loadAverage, loadRun, loadTitle, progress, runBench } from './lib/run.ts';
import { int, printTable, verdict } from './lib/table.ts';

const LOAD = { connections: 10, durationSec: 3, warmupSec: 1 };
/** Distinct wallets, and messages signed per wallet (the later ones are idempotent re-joins). */
const WALLETS = 600;
const MESSAGES_PER_WALLET = 4;
const TARGET_PROOF_RATIO = 0.5;

interface Visitor {
  cookie: string;
  token: string;
}

function startAllowlistServer(databaseUrl: string, dataDir: string, routeOnlyPort = 0): Promise<ServerHandle> {
  return startOnFreePort((port) => ({
    name: 'allowlist server',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(import.meta.dirname, 'lib/allowlist-server-child.ts')],
    timeoutMs: 60_000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      OUTBOX_DIR: path.join(dataDir, 'outbox'),
      ERASURE_LEDGER: path.join(dataDir, 'erasure-ledger'),
      LOG_LEVEL: 'warn',
      // The limits have their own tests; here one client sends everything.
      ALLOWLIST_RATE_LIMIT: '100000000',
      SIGNUP_MIN_FILL_SECONDS: '0',
      ROUTE_ONLY_PORT: String(routeOnlyPort),
    },
  }));
}

async function visitorOf(server: ServerHandle): Promise<Visitor> {
  const res = await fetch(`${server.origin}${apiPaths.csrf}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  const token = cookies.find((c) => c.startsWith(`${xsrf.cookie}=`))?.split('=')[1] ?? '';
  return { cookie: cookies.join('; '), token: decodeURIComponent(token) };
}

const postHeaders = (v: Visitor) => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  cookie: v.cookie,
  [xsrf.header]: v.token,
});

/** Signed join bodies, written by the server and signed here before the clock starts. */
async function signedJoins(server: ServerHandle, visitor: Visitor): Promise<{ bodies: string[]; addresses: string[] }> {
  progress(`signing ${WALLETS * MESSAGES_PER_WALLET} messages for ${WALLETS} wallets`);
  const wallets = Array.from({ length: WALLETS }, () => testAccount(Secp256k1.randomPrivateKey()));
  const bodies: string[] = [];
  for (let round = 0; round < MESSAGES_PER_WALLET; round++) {
    for (let i = 0; i < wallets.length; i += 20) {
      const batch = wallets.slice(i, i + 20);
      const signed = await Promise.all(
        batch.map(async (w) => {
          const ask = () =>
            fetch(`${server.origin}${apiPaths.allowlistChallenge}`, {
              method: 'POST',
              headers: postHeaders(visitor),
              body: JSON.stringify({ address: w.address, purpose: 'join' }),
            });
          let res = await ask();
          // A busy machine trips the overload guard (503 with Retry-After): wait as told, once or twice.
          for (let tries = 0; res.status === 503 && tries < 5; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
            res = await ask();
          }
          if (!res.ok) throw new Error(`challenge: ${res.status} ${await res.text()}`);
          const { message } = (await res.json()) as { message: string };
          return JSON.stringify({ message, signature: w.sign(message) });
        }),
      );
      bodies.push(...signed);
    }
  }
  return { bodies, addresses: wallets.map((w) => w.address) };
}

async function registrations(server: ServerHandle, label: string): Promise<{ load: LoadSummary; addresses: string[] }> {
  const visitor = await visitorOf(server);
  const { bodies, addresses } = await signedJoins(server, visitor);
  let next = 0;
  const load = await loadRun(label, {
    ...LOAD,
    url: `${server.origin}${apiPaths.allowlistJoin}`,
    serverPid: server.pid,
    requests: [
      {
        method: 'POST',
        path: apiPaths.allowlistJoin,
        headers: postHeaders(visitor),
        // Past the last body the run would replay messages (refused, 409): counted as non-2xx.
        setupRequest: (request) => ({ ...request, body: bodies[next++] ?? bodies[0] }),
      },
    ],
  });
  return { load, addresses };
}

function proofs(server: ServerHandle, addresses: string[], label: string): Promise<LoadSummary> {
  let next = 0;
  return loadRun(label, {
    ...LOAD,
    url: server.origin,
    serverPid: server.pid,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: fillPath(apiPaths.allowlistProof, { address: addresses[next++ % addresses.length] ?? '' }),
        }),
      },
    ],
  });
}

/**
 * One proof exactly as the app sends it, minus what Node adds to any answer (Date, Connection,
 * Keep-Alive, Content-Length): for a bare server that sends the same bytes.
 */
async function proofAsSent(
  server: ServerHandle,
  address: string,
): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const res = await fetch(`${server.origin}${fillPath(apiPaths.allowlistProof, { address })}`);
  if (!res.ok) throw new Error(`proof of a listed address: ${res.status} ${await res.text()}`);
  const nodeAdds = new Set(['date', 'connection', 'keep-alive', 'content-length']);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !nodeAdds.has(name)));
  return { headers, body: Buffer.from(await res.arrayBuffer()) };
}

const rate = (l: LoadSummary) => l.status2xx / l.durationSec;
const cpu = (l: LoadSummary) => (l.serverCpuUsPerRequest === null ? 'n/a' : int(l.serverCpuUsPerRequest));
const row = (name: string, l: LoadSummary, bare: LoadSummary, extra = '') => [
  name,
  int(rate(l)),
  `${(rate(l) / rate(bare)).toFixed(2)}×`,
  `${Math.round(l.latencyP99Ms)} ms`,
  cpu(l),
  int(l.non2xx + l.errors),
  extra,
];

runBench({ name: 'bench:allowlist', timeoutMs: 10 * 60_000 }, async () => {
  const sample = JSON.stringify({ address: Address.checksum(testAccount().address), since: new Date().toISOString() });
  const bareJoin = await withServer(
    () => startBareServer({ headers: { 'content-type': 'application/json' }, body: Buffer.from(sample) }),
    (s) => loadRun('bare node:http, POST', { ...LOAD, url: s.origin, method: 'POST', body: '{}', serverPid: s.pid }),
  );

  const data = tempDir('dh-bench-allowlist-');
  const sqliteFile = path.join(data.dir, 'bench.sqlite');
  progress('starting the allowlist server on SQLite');
  const routeOnlyPort = await freePort();
  const sqlite = await withServer(
    () => startAllowlistServer(`sqlite:${sqliteFile}`, data.dir, routeOnlyPort),
    async (server) => {
      const joined = await registrations(server, 'registrations, SQLite');
      progress('freezing a snapshot of what joined');
      const store = await openStore(`sqlite:${sqliteFile}`);
      const snapshot = await store.db
        .transaction()
        .execute((trx) =>
          freezeSnapshot(trx, { now: new Date(), requestedBy: 'bench', approvedBy: 'bench', keepOpen: true }),
        );
      // Only the wallets that joined before the freeze have proofs.
      const leaves = (await store.db.selectFrom('allowlist_entries').select('address').execute()).map((r) => r.address);
      await store.close();
      const proofLoad = await proofs(server, leaves, 'proofs');
      const routeOnly = await proofs(
        { ...server, origin: `http://127.0.0.1:${routeOnlyPort}` },
        leaves,
        'proofs through Fastify alone',
      );
      const asSent = await proofAsSent(server, leaves[0] ?? '');
      // The app's cheapest GET, for what every route here costs before its own work.
      const floor = await loadRun('GET /healthz', {
        ...LOAD,
        url: `${server.origin}${healthPaths.alive}`,
        serverPid: server.pid,
      });
      return { ...joined, snapshot, leaves, proofLoad, routeOnly, floor, asSent };
    },
  );
  const sampleProof = JSON.stringify({ root: sqlite.snapshot.root, proof: Array(10).fill(sqlite.snapshot.root) });
  const bareProof = await withServer(
    () =>
      startBareServer({
        headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' },
        body: Buffer.from(sampleProof),
      }),
    (s) => loadRun('bare node:http, GET', { ...LOAD, url: s.origin, serverPid: s.pid }),
  );
  // What bounds the proofs' row besides the server (decision 0049): the same bare server asked
  // through the proofs' request list (autocannon builds each request in JavaScript), then a bare
  // server sending a proof's exact headers and bytes (autocannon parses responses in JavaScript,
  // header by header). The target stays measured against the plain bare row above.
  const bareProofRequests = await withServer(
    () =>
      startBareServer({
        headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' },
        body: Buffer.from(sampleProof),
      }),
    (s) => proofs(s, sqlite.leaves, "bare node:http, the proofs' requests"),
  );
  const bareProofAnswer = await withServer(
    () => startBareServer(sqlite.asSent),
    (s) => proofs(s, sqlite.leaves, "bare node:http, the proofs' requests and a proof's exact answer"),
  );

  progress(`PostgreSQL at ${redactUrl(postgresBaseUrl())}`);
  const scratch = await createScratchDatabase(postgresBaseUrl());
  const postgres = await withServer(
    () => startAllowlistServer(scratch.url, data.dir),
    (server) => registrations(server, 'registrations, PostgreSQL'),
  ).finally(() => scratch.drop());
  data.remove();

  const head = ['server', '2xx/s', 'vs bare', 'p99', 'CPU µs/req', 'non-2xx', 'note'];
  printTable(loadTitle('Registrations (POST /api/allowlist/join, signature recovery included)', LOAD), head, [
    row('bare node:http', bareJoin, bareJoin),
    row('allowlist, SQLite', sqlite.load, bareJoin, `${WALLETS} wallets × ${MESSAGES_PER_WALLET} messages`),
    row('allowlist, PostgreSQL', postgres.load, bareJoin, `${scratch.durability}`),
  ]);
  // The load generator shares the two cores with the server, so its CPU per request bounds the
  // rate as the server's does; rows that differ in it are not comparable by rate alone.
  const loadgenUs = (l: LoadSummary) =>
    l.requests > 0 ? int((l.loadgenCpu * l.durationSec * 1e6) / l.requests) : 'n/a';
  const withLoadgen = (name: string, l: LoadSummary, extra = '') => [
    ...row(name, l, bareProof, extra).slice(0, -1),
    loadgenUs(l),
    extra,
  ];
  printTable(
    loadTitle('Proofs (GET /api/allowlist/proof/:address, from memory)', LOAD),
    [...head.slice(0, -1), 'load gen µs/req', 'note'],
    [
      withLoadgen('bare node:http', bareProof),
      withLoadgen("bare, the proofs' requests", bareProofRequests, 'a path per request, as the proofs are asked'),
      withLoadgen(
        "bare, the proofs' requests and answer",
        bareProofAnswer,
        `a proof's ${Object.keys(sqlite.asSent.headers).length} headers and bytes`,
      ),
      withLoadgen('same app, GET /healthz', sqlite.floor, 'through Fastify: its cheapest route'),
      withLoadgen('proofs through Fastify alone', sqlite.routeOnly, 'the same app without the fast path'),
      withLoadgen(
        'allowlist proofs',
        sqlite.proofLoad,
        `${sqlite.snapshot.entries} leaves; target ≥ ${TARGET_PROOF_RATIO}× bare: ${verdict(rate(sqlite.proofLoad) >= TARGET_PROOF_RATIO * rate(bareProof))}`,
      ),
    ],
  );
  // What one registration cannot do without: recovering the signer (secp256k1, ox on @noble/curves).
  const signer = testAccount();
  const signature = signer.sign('bench');
  const hash = PersonalMessage.getSignPayload(Hex.fromString('bench'));
  const started = process.cpuUsage();
  const N = 300;
  for (let i = 0; i < N; i++) Secp256k1.recoverAddress({ payload: hash, signature: Signature.fromHex(signature) });
  const spent = process.cpuUsage(started);
  console.log(
    `\nOne secp256k1 recovery alone, in this process: ${int((spent.user + spent.system) / N)} µs of CPU (${N} runs).`,
  );
  console.log(`Load average after the runs: ${loadAverage()}`);
});
