// `npm run bench:beacon`: visit beacons per second and their latency (POST /api/visit, answered
// 204 at once and written in batches each second) beside a bare node:http server answering 204,
// then how many visits reached the database. A measurement, not a test: it exits 0 whatever the
// figures, and non-zero only when it could not measure.
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BEACON_BODY as BODY,
  BEACON_HEADERS as HEADERS,
  beaconRequests,
  nextAddress,
  VISIT_PATH,
} from './lib/beacon-load.ts';
import { httpRequest, type RawResponse } from './lib/http.ts';
import { busyWarning, type LoadRow, printLoadRows } from './lib/load-report.ts';
import type { LoadSummary } from './lib/load.ts';
import { answerCounts, cpuProfileArgs, sqliteCounts, withSqliteDir } from './lib/post-bench.ts';
import { type ServerHandle, startBareServer, startBuiltServer, withServer } from './lib/processes.ts';
import { loadRun, loadTitle, progress, runBench } from './lib/run.ts';
import { int, printTable } from './lib/table.ts';

// CPU per beacon at most 50 µs (issue 22).
const TARGETS = { ratio: 0.3, cpuUs: 50 };
const LOAD = { connections: 50, durationSec: 10, warmupSec: 2 };
/** Longer than the recorder's 1 s flush interval, so the last batch is due before the stop. */
const SETTLE_MS = 2_000;

/** The load run, the same stream of beacons for either server. */
const loadBeacons = (server: ServerHandle, label: string): Promise<LoadSummary> =>
  loadRun(label, { url: `${server.origin}${VISIT_PATH}`, requests: beaconRequests, serverPid: server.pid, ...LOAD });

async function probe(server: ServerHandle): Promise<RawResponse> {
  const res = await httpRequest(`${server.origin}${VISIT_PATH}`, {
    method: 'POST',
    headers: { ...HEADERS, 'x-forwarded-for': nextAddress() },
    body: BODY,
  });
  if (res.status !== 204) throw new Error(`The probe beacon answered ${res.status}, not 204.`);
  return res;
}

interface Stored {
  visits: number;
  totalViews: number;
  visitors: number;
  countries: number;
}

interface ProductionRun {
  row: LoadRow;
  answered204: number;
  failed: number;
  stored: Stored;
}

function measureProduction(): Promise<ProductionRun> {
  return withSqliteDir('dh-bench-beacon-', async ({ file, outboxDir }) => {
    progress('starting the production server (SQLite, TRUST_PROXY=true)');
    const env = { DATABASE_URL: `sqlite:${file}`, OUTBOX_DIR: outboxDir, TRUST_PROXY: 'true', LOG_LEVEL: 'warn' };
    const { load, response } = await withServer(
      () => startBuiltServer(env, cpuProfileArgs()),
      async (server) => {
        const first = await probe(server);
        const measured = await loadBeacons(server, 'production');
        progress(`waiting ${SETTLE_MS / 1000} s, then stopping the server (SIGTERM: it writes what it holds)`);
        await sleep(SETTLE_MS);
        return { load: measured, response: first };
      },
    );
    const stored: Stored = sqliteCounts(file, {
      visits: 'select count(*) as n from visits',
      totalViews: `select sum(views) as n from daily_counts where dimension = 'total'`,
      visitors: 'select count(*) as n from daily_visitors',
      countries: `select count(distinct country) as n from visits`,
    });
    const { answered2xx, failed } = answerCounts(load);
    return {
      row: {
        label: 'production, SQLite',
        load,
        responseBytes: `${response.headerBytes} + ${response.body.length}`,
        minRatio: TARGETS.ratio,
        maxCpuUs: TARGETS.cpuUs,
      },
      answered204: answered2xx,
      failed,
      stored,
    };
  });
}

async function measureBare(): Promise<LoadRow> {
  progress('starting a bare node:http server answering 204');
  return withServer(
    () => startBareServer({ status: 204, headers: { 'cache-control': 'no-store' }, body: Buffer.alloc(0) }),
    async (server) => {
      const check = await probe(server);
      const load = await loadBeacons(server, 'bare node:http');
      return { label: 'bare node:http', load, responseBytes: `${check.headerBytes} + 0` };
    },
  );
}

function printStored(run: ProductionRun): void {
  const { stored } = run;
  const extra = stored.visits - run.answered204;
  printTable(
    'Visits written vs beacons answered (probe + warm-up + measured run; the answer leaves before the write)',
    ['204 answers', 'non-204+err', 'visit rows', 'rows − 204s', 'total views (roll-up)', 'daily visitors', 'countries'],
    [
      [
        int(run.answered204),
        int(run.failed),
        int(stored.visits),
        int(extra),
        int(stored.totalViews),
        int(stored.visitors),
        int(stored.countries),
      ],
    ],
  );
  console.log(
    '(Rows can fall short of the 204s: the recorder holds up to a second of visits in memory, and a write ' +
      'that fails is dropped, not retried. They can exceed them by beacons in flight when autocannon stopped, ' +
      'up to one per connection per run. The roll-up should equal the rows.)',
  );
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const production = await measureProduction();
  const bare = await measureBare();
  printLoadRows({
    summary: 'Beacons',
    title: loadTitle(`Visit beacons (POST ${VISIT_PATH}, varied X-Forwarded-For)`, LOAD),
    unit: 'beacons/s',
    rows: [production.row, bare],
  });
  busyWarning(loadBefore);
  printStored(production);
}

runBench({ name: 'Beacon bench', timeoutMs: 4 * 60_000 }, main);
