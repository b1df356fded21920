import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorText } from '../lib/log-safe.ts';

/** Work the server does on its own, outside requests. */
export interface BackgroundJob {
  name: string;
  start(): void;
  /** Stops, finishing what it has in hand (a send under way, a buffer to write). */
  stop(): Promise<void>;
  /** Does one pass of its work now, whether started or not (tests; an operator's "run now"). */
  runOnce(): Promise<void>;
}

export interface Jobs {
  add(job: BackgroundJob): void;
  /** One pass of a job's work now (tests wait on this instead of on a timer). */
  runOnce(name: string): Promise<void>;
  names(): string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * A job that runs `run` now and then every `everyMs` (timers unref'd: a job never keeps the
 * process alive). A failed run is logged and tried again at the next tick.
 */
export function intervalJob(
  name: string,
  everyMs: number,
  run: () => Promise<void>,
  onError: (error: unknown) => void,
): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(run).catch(onError);
    return running;
  };
  return {
    name,
    start() {
      void tick();
      timer = setInterval(() => void tick(), everyMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
    runOnce: tick,
  };
}

/**
 * A job that runs `run` now and then at the times `next` gives (timers unref'd), for work tied to
 * the calendar rather than to a period. A wait is capped at `maxWaitMs`, so a clock that jumps
 * (or a laptop that slept) is noticed within that; `run` must be cheap when it has nothing to do.
 */
export function scheduledJob(
  name: string,
  opts: { next: () => number; maxWaitMs: number },
  run: () => Promise<void>,
  onError: (error: unknown) => void,
): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(run).catch(onError);
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().then(schedule), Math.max(0, Math.min(opts.maxWaitMs, opts.next())));
    timer.unref();
  };
  return {
    name,
    start() {
      stopped = false;
      void tick().then(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    runOnce: tick,
  };
}

/**
 * The one list of background jobs. Features add theirs while they register; the list starts when
 * the server is ready (listening, or `app.ready()` in a test that asks for jobs) and stops when it
 * closes, in the reverse order of starting, after the last request has been answered: Fastify runs
 * onClose hooks once the server has stopped accepting and in-flight requests are done.
 */
export const jobsPlugin = fp(
  async (app: FastifyInstance, opts: { autoStart: boolean }) => {
    const jobs: BackgroundJob[] = [];
    let started: BackgroundJob[] = [];
    app.decorate('jobs', {
      add(job) {
        if (jobs.some((j) => j.name === job.name))
          throw new Error(`A background job named ${job.name} exists already.`);
        jobs.push(job);
      },
      async runOnce(name) {
        const job = jobs.find((j) => j.name === name);
        if (!job) throw new Error(`No background job named ${name}; there are: ${jobs.map((j) => j.name).join(', ')}.`);
        await job.runOnce();
      },
      names: () => jobs.map((j) => j.name),
    } satisfies Jobs);

    if (opts.autoStart) {
      app.addHook('onReady', async () => {
        for (const job of jobs) {
          job.start();
          started.push(job);
        }
        app.log.debug({ jobs: started.map((j) => j.name) }, 'background jobs started');
      });
    }
    app.addHook('onClose', async () => {
      for (const job of started.reverse()) {
        await job
          .stop()
          .catch((error: unknown) =>
            app.log.warn({ job: job.name, err: errorText(error) }, 'job did not stop cleanly'),
          );
      }
      started = [];
    });
  },
  { name: 'dh-jobs', fastify: '5.x' },
);
