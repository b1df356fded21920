// `npx tsx bench/log-volume-bench.ts` (after `npm run build`): the page bench's log-volume section
// alone, bytes of log per request at LOG_LEVEL=info with LOG_REQUESTS on and off, in seconds
// rather than the page bench's minutes.
import { logVolumeSection } from './lib/log-volume.ts';
import { runBench } from './lib/run.ts';

const seconds = Number(process.env.LOG_BENCH_SECONDS ?? 5);

runBench({ name: 'Log volume bench', timeoutMs: 5 * 60_000 }, () =>
  logVolumeSection('/', { 'accept-encoding': 'br' }, { connections: 10, durationSec: seconds, warmupSec: 1 }, 'Logs'),
);
