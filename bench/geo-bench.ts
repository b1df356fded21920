// Load time, memory and lookup cost of the local geo databases:
//   npm run bench:geo  (node --expose-gc --import tsx bench/geo-bench.ts)
// CPU time is printed beside wall time because a busy shared machine inflates the latter.
import maxmind, { type Response } from 'maxmind';
import { toPublicAddress } from '../src/server/geo/address.ts';
import { loadAsnTable } from '../src/server/geo/asn-table.ts';
import { defaultCityFiles, geoLookupFrom, openGeoDatabases } from '../src/server/geo/geo-lookup.ts';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

// Twice, with a pause: freed file buffers are only released after a finalisation pass.
async function settle(): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
}

async function measure<T>(label: string, load: () => Promise<T>): Promise<T> {
  await settle();
  const before = process.memoryUsage();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await load();
  const wall = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  await settle();
  const after = process.memoryUsage();
  console.log(
    `${label}: ${wall.toFixed(0)} ms wall, ${((user + system) / 1000).toFixed(0)} ms CPU; retained heap +${mb(after.heapUsed - before.heapUsed)}, array buffers +${mb(after.arrayBuffers - before.arrayBuffers)}`,
  );
  return value;
}

function randomPublicIPv4s(count: number): string[] {
  const out: string[] = [];
  let seed = 0x9e3779b9;
  while (out.length < count) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const ip = `${seed >>> 24}.${(seed >>> 16) & 255}.${(seed >>> 8) & 255}.${seed & 255}`;
    if (toPublicAddress(ip)) out.push(ip);
  }
  return out;
}

function perLookup(label: string, ips: string[], fn: (ip: string) => unknown): void {
  for (const ip of ips.slice(0, 10_000)) fn(ip); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const ip of ips) fn(ip);
  const wall = performance.now() - started;
  const { user } = process.cpuUsage(cpu);
  console.log(
    `${label}: ${((wall * 1000) / ips.length).toFixed(2)} µs wall, ${(user / ips.length).toFixed(2)} µs CPU per lookup (${ips.length} lookups)`,
  );
}

const files = defaultCityFiles();
const cityV4 = await measure('city IPv4 mmdb', () => maxmind.open<Response>(files.cityV4));
await measure('city IPv6 mmdb', () => maxmind.open<Response>(files.cityV6));
const asn = await measure('ASN CSVs → typed arrays', () => loadAsnTable());
console.log('ASN table:', asn.stats);
const geo = geoLookupFrom(await measure('everything (openGeoDatabases)', () => openGeoDatabases()));

const ips = randomPublicIPv4s(100_000);
perLookup('classify only', ips, toPublicAddress);
perLookup('city only (maxmind get)', ips, (ip) => cityV4.get(ip));
perLookup('ASN only', ips, (ip) => {
  const a = toPublicAddress(ip);
  return a && asn.lookup(a);
});
perLookup('lookupLocal (all fields)', ips, (ip) => geo.lookupLocal(ip));
geo.close();
