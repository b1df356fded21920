// Child process started by measureExport() (console-bench.ts): streams the CSV export of every
// subscriber of EXPORT_DATABASE_URL, as the export route does, and prints its figures. A process
// of its own, as the server is, so that the growth measured is the export's and not the bench's
// (whose heap holds its seeding's garbage and the audience sums it kept).
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { subscribersCsv } from '../../src/server/features/subscribers/index.ts';
import { openStore } from '../../src/server/store/database.ts';

const store = await openStore(String(process.env.EXPORT_DATABASE_URL));
// The connection is open and the store's modules loaded before the baseline, as in a server.
await store.db.selectFrom('subscribers').select('id').limit(1).execute();
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
let bytes = 0;
let newlines = 0;
const started = performance.now();
await pipeline(
  subscribersCsv(store, {}),
  new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 0x0a) newlines++;
      done();
    },
  }),
);
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await store.close();
// The header is one line; every other line is a subscriber.
console.log(JSON.stringify({ rows: newlines - 1, bytes, ms, rssGrowthMb: (peak - before) / 1024 / 1024 }));
