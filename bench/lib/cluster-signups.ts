// One closed-loop sign-up run through nginx in front of two instances on PostgreSQL + Redis, with
// the Redis commands and PostgreSQL round trips the instances sent counted on the wire: shared by
// the cluster bench and the CPU A/B tool (BENCH_AB_STORE=cluster).
import { randomBytes } from 'node:crypto';
import { deleteRedisKeys } from '../../src/server/test/test-redis.ts';
import type { RawResponse } from './http.ts';
import { startCluster } from './cluster.ts';
import { startSinkProcess } from './mail.ts';
import type { LoadSummary } from './load.ts';
import type { ScratchDatabase } from './postgres.ts';
import { progress, type LoadShape } from './run.ts';
import { loadSignups, probe, SIGNUP_ENV, SIGNUP_PATH, type Visitor, visitorOf } from './signup-load.ts';
import { recordSummary } from './summary.ts';
import { int, printTable } from './table.ts';
import { startWireCounters, type WireCount } from './wire-counters.ts';

export interface ClusterSignups {
  load: LoadSummary;
  /** Sign-up requests each instance answered, by upstream address (nginx's access log). */
  perInstance: Map<string, number>;
  /** What the instances sent over the warm-up and the measured run. */
  counts: WireCount[];
  /**
   * Sign-ups stored over the same span, counted in the database once the instances had stopped:
   * a few more than were answered, since the requests in flight when the load stopped were
   * processed too (and sent their commands).
   */
  stored: number;
  template: RawResponse;
  visitor: Visitor;
}

export async function runClusterSignups(opts: {
  scratch: ScratchDatabase;
  redisUrl: string;
  shape: LoadShape;
  /** The built server to run (default dist/server/main.js). */
  server?: string;
  nodeArgs?: string[];
}): Promise<ClusterSignups> {
  // Only this run's keys are deleted afterwards: the Redis server may be shared.
  const prefix = `dh-bench:${randomBytes(4).toString('hex')}:`;
  progress(`starting the wire counters, two instances and nginx (Redis keys under ${prefix})`);
  const wire = await startWireCounters([
    { protocol: 'redis', url: opts.redisUrl },
    { protocol: 'postgres', url: opts.scratch.url },
  ]);
  // The confirmations go over SMTP, as a site on PostgreSQL sends them, to a sink of its own.
  const sink = await startSinkProcess();
  try {
    const cluster = await startCluster({
      databaseUrl: wire.urlFor('postgres', opts.scratch.url),
      redisUrl: wire.urlFor('redis', opts.redisUrl),
      smtpUrl: sink.url,
      env: { ...SIGNUP_ENV, REDIS_KEY_PREFIX: prefix },
      ...(opts.nodeArgs ? { nodeArgs: opts.nodeArgs } : {}),
      ...(opts.server ? { server: opts.server } : {}),
    });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      progress('stopping nginx and the instances (SIGTERM: they finish their commits first)');
      await cluster.stop();
    };
    try {
      const target = { origin: cluster.url, pid: cluster.instances.map((i) => i.pid) };
      const visitor = await visitorOf(target);
      const template = await probe(target, visitor);
      const before = await storedSignups(opts.scratch);
      await wire.reset();
      const load = await loadSignups(
        target,
        opts.shape,
        'two instances behind nginx, PostgreSQL + Redis',
        visitor,
        opts.scratch.backendPids,
      );
      const perInstance = cluster.answeredBy((l) => l.includes(SIGNUP_PATH));
      // Counted once every commit is in: what the requests still in flight sent counts too.
      await stop();
      const counts = await wire.counts();
      const stored = (await storedSignups(opts.scratch)) - before;
      return { load, perInstance, counts, stored, template, visitor };
    } finally {
      await stop();
    }
  } finally {
    await sink.process.stop();
    await wire.process.stop();
    await deleteRedisKeys(prefix, opts.redisUrl).catch(() => undefined);
  }
}

async function storedSignups(scratch: ScratchDatabase): Promise<number> {
  const [row] = await scratch.query<{ n: string }>('select count(*) as n from subscribers');
  return Number(row?.n);
}

/** Requests per sign-up stored over the warm-up and the measured run, overall and by name. */
export function perSignup(count: WireCount, stored: number): { total: number; byName: [string, number][] } {
  const signups = Math.max(1, stored);
  // Counted after the instances stopped, so that every commit is in: each instance's QUIT as it
  // closed its Redis connection is in the count, but no sign-up sent it.
  const byName = Object.entries(count.byName).filter(([name]) => !(count.protocol === 'redis' && name === 'quit'));
  return {
    total: byName.reduce((sum, [, n]) => sum + n, 0) / signups,
    byName: byName.sort((a, b) => b[1] - a[1]).map(([name, n]) => [name, n / signups]),
  };
}

/**
 * Redis commands and PostgreSQL round trips per sign-up, as the instances sent them (counted on
 * the wire). PostgreSQL's include the outbox worker's, which sends each confirmation email: how
 * many went out is printed beside them.
 */
export function printRoundTrips(
  run: ClusterSignups,
  emailsSent: number,
  opts: { redisPerSignup: number; summary: string },
): void {
  recordSummary(
    run.counts.map((c) => {
      // Not judged here: commands and stored rows, counted over the same span, disagree at its
      // edges by up to a per cent (1.00–1.01 at load average 8–16); the exact count, one command
      // per sign-up, is pinned by signup-round-trips.test.ts.
      const per = perSignup(c, run.stored).total;
      const redis = c.protocol === 'redis';
      return {
        bench: opts.summary,
        figure: redis
          ? 'Redis commands per sign-up, two instances'
          : 'PostgreSQL round trips per sign-up, two instances (confirmation emails included)',
        value: per.toFixed(3),
        target: redis ? `${opts.redisPerSignup} per sign-up: judged exactly by signup-round-trips.test.ts` : '',
      };
    }),
  );
  printTable(
    `Round trips per sign-up (warm-up + run: ${int(run.stored)} sign-ups stored, ${int(emailsSent)} confirmation emails sent by the end)`,
    ['Server', 'per sign-up', 'of which'],
    run.counts.map((c) => {
      const per = perSignup(c, run.stored);
      return [
        c.protocol === 'redis'
          ? 'Redis (commands)'
          : 'PostgreSQL (round trips: queries + syncs; outbox worker included)',
        per.total.toFixed(2),
        per.byName.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', '),
      ];
    }),
  );
}
