// `npm run bench:invite` (and a row of `npm run bench`): what a visit through a friend's invite link
// costs against the page from memory, on one built server in the same run (issue 38). The requests
// carry random codes (a thousand, in turn), as an attacker's would (random codes also defeat a
// CDN), and ask for brotli as a browser does. Rounds alternate `/` and invites, so both see the same machine;
// the figure is the invites' requests/s over `/`'s, target at least 0.8×. A measurement: it exits 0
// whatever the figures, non-zero only when it could not measure.
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { httpGet } from './lib/http.ts';
import { type LoadShape, loadRun, loadTitle, progress, runBench } from './lib/run.ts';
import { startBuiltServer } from './lib/processes.ts';
import { recordSummary } from './lib/summary.ts';
import { int, kb, printTable, verdict } from './lib/table.ts';

const TARGET_RATIO = 0.8;
const LOAD: LoadShape = { connections: 50, durationSec: 6, warmupSec: 1 };
const ROUNDS = Number(process.env.BENCH_INVITE_ROUNDS ?? 4);
const BR = { 'accept-encoding': 'br' };

const code = (): string => randomBytes(16).toString('base64url');

interface Figures {
  perSec: number[];
  bytes: number;
  cpuUs: number[];
}

async function main(): Promise<void> {
  const server = await startBuiltServer();
  try {
    const home = `${server.origin}/`;
    // The bytes each answer carries (brotli, as a browser asks), one request each.
    const homeBytes = (await httpGet(home, BR)).body.length;
    // The first invite visit starts the page's compression (on the thread pool): until it is made,
    // the page goes out as it is. Wait for the compressed page, as a visitor a moment later gets it.
    let invited = await httpGet(`${home}?invite=${code()}`, BR);
    for (let tries = 0; invited.headers['content-encoding'] !== 'br' && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      invited = await httpGet(`${home}?invite=${code()}`, BR);
    }
    if (invited.headers['content-encoding'] !== 'br') throw new Error('The invite page did not come in brotli.');
    const inviteBytes = invited.body.length;
    // A list of fixed requests, each with its own random code, that every connection walks: the
    // generator builds each request once, as it does for /, so its own cost is the same for both
    // (a code made per request, in JavaScript on the same two cores, slowed the generator, not the server).
    const invites: autocannon.Request[] = Array.from({ length: 1000 }, () => ({
      method: 'GET',
      path: `/?invite=${code()}`,
      headers: BR,
    }));
    const figures: Record<'home' | 'invite', Figures> = {
      home: { perSec: [], bytes: homeBytes, cpuUs: [] },
      invite: { perSec: [], bytes: inviteBytes, cpuUs: [] },
    };
    // `/` is asked through a list of the same length, so the generator does the same work for both.
    const homes: autocannon.Request[] = invites.map(() => ({ method: 'GET', path: '/', headers: BR }));
    const runHome = () => loadRun('GET / (br)', { url: home, requests: homes, serverPid: server.pid, ...LOAD });
    const runInvites = () =>
      loadRun('GET /?invite=<random> (br)', { url: home, requests: invites, serverPid: server.pid, ...LOAD });
    for (let round = 1; round <= ROUNDS; round++) {
      progress(`round ${round} of ${ROUNDS}`);
      // Which goes first alternates, so neither always runs on a machine the other warmed.
      const first = round % 2 === 1 ? await runHome() : await runInvites();
      const second = round % 2 === 1 ? await runInvites() : await runHome();
      const [h, i] = round % 2 === 1 ? [first, second] : [second, first];
      for (const [name, run] of [
        ['home', h],
        ['invite', i],
      ] as const) {
        if (run.non2xx + run.errors + run.timeouts > 0)
          throw new Error(`${name}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts`);
        figures[name].perSec.push(run.reqPerSec);
        if (run.serverCpuUsPerRequest !== null) figures[name].cpuUs.push(run.serverCpuUsPerRequest);
      }
    }
    report(figures);
  } finally {
    await server.stop();
  }
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function report(f: Record<'home' | 'invite', Figures>): void {
  const ratio = mean(f.invite.perSec) / mean(f.home.perSec);
  const row = (name: string, x: Figures) => [
    name,
    x.perSec.map(int).join(' / '),
    int(mean(x.perSec)),
    x.cpuUs.length ? `${Math.round(mean(x.cpuUs))} µs` : 'n/a',
    kb(x.bytes),
  ];
  printTable(
    loadTitle('Invite arrivals against the page from memory (one built server, SQLite, brotli)', LOAD),
    ['request', 'req/s by round', 'req/s', 'server CPU per request', 'bytes (br)'],
    [row('GET /', f.home), row('GET /?invite=<random code>', f.invite)],
  );
  const target = `≥ ${TARGET_RATIO}×: ${verdict(ratio >= TARGET_RATIO)}`;
  // Server CPU per answer barely moves when other processes take the cores, so it is the steadier
  // comparison on a busy machine: / per request over an invite per request.
  const cpuRatio = f.invite.cpuUs.length ? mean(f.home.cpuUs) / mean(f.invite.cpuUs) : NaN;
  console.log(
    `\nInvites over /: ${ratio.toFixed(2)}× in req/s (${target}), ${cpuRatio.toFixed(2)}× in server CPU per request`,
  );
  recordSummary([
    {
      bench: 'invite',
      figure: `GET /?invite=<random> (br, ${kb(f.invite.bytes)}) against GET / (br, ${kb(f.home.bytes)}), req/s`,
      value: int(mean(f.invite.perSec)),
      ceiling: int(mean(f.home.perSec)),
      ratio: `${ratio.toFixed(2)}× (CPU per request ${cpuRatio.toFixed(2)}×)`,
      target,
    },
  ]);
}

runBench({ name: 'npm run bench:invite', timeoutMs: 3 * 60_000 }, main);
