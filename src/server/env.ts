import { z } from 'zod';
import { allowlistEnv } from './features/allowlist/allowlist-config.ts';
import { analyticsEnv } from './features/analytics/analytics-config.ts';
import { broadcastEnv } from './features/broadcast/broadcast-config.ts';
import { defaultMailFrom, mailEnv, mailEnvProblems } from './features/mail/mail-config.ts';
import { referralsEnv } from './features/referrals/referrals-config.ts';
import { signupsEnv } from './features/signups/signups-config.ts';
import { subscribersEnv } from './features/subscribers/subscribers-config.ts';
import { parseKeyText } from './store/data-keys.ts';

const keyText = z
  .string()
  .refine(
    (v) => parseKeyText(v) !== null,
    'must be 32 random bytes as base64 or 64 hex digits (e.g. `openssl rand -base64 32`)',
  );

// Several values in one variable, comma-separated (spaces and empty items ignored).
const commaList = z.string().transform((v) =>
  v
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean),
);

// Every setting the server reads, read once at start and in one pass, so that every bad variable
// is named at once, before anything is opened. Defaults make a fresh clone work. Here: what the
// process and the infrastructure (store, keys, Redis, proxy, logs, health, metrics, geo) read.
// A feature's settings are its own, in features/<name>/<name>-config.ts (its zod fields, their
// words, and what they become in its plugin's options), reached through its door and spread in
// below. A new setting goes there, with its row in the README's table.
const coreEnv = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0–65535')
    .max(65535, 'must be 0–65535')
    .default(3000),
  HOST: z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
  PUBLIC_URL: z
    .string()
    .trim()
    .url('must be a full URL such as https://diamondhand.example')
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // A line for every request (src/server/lib/request-log.ts); off behind a proxy that writes an
  // access log, leaving only errors, refusals and slow answers.
  LOG_REQUESTS: z
    .string()
    .trim()
    .pipe(
      z.enum(['on', 'off'], {
        error: 'must be on (a line for every request: the default) or off (only errors, refusals and slow requests)',
      }),
    )
    .default('on'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<file> or postgres://user@host/db')
    .optional(),
  // Shared limits across instances (src/server/plugins/redis.ts); unset: each instance counts alone.
  REDIS_URL: z
    .string()
    .trim()
    .regex(/^rediss?:\/\/.+/, 'must be redis://[user:pass@]host:6379[/db] or rediss://… (TLS)')
    .optional(),
  // How long a request waits for Redis before it counts on this instance alone. Short, so a slow
  // Redis never stalls a visitor; a count whose answer comes later than this is kept in Redis
  // but not seen by the request, which then errs on the strict side.
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(10, 'must be at least 10 ms')
    .max(60_000, 'must be at most 60000 ms (a minute)')
    .default(200),
  // Every key this app writes starts with it, so two deployments (or test runs) can share a server.
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[\w:.-]{1,64}$/, 'must be 1–64 letters, digits, and _ : . -')
    .default('dh:'),
  // A key ring for signed cookies: the first key signs, the ones after it (comma-separated) still
  // verify, so a rotation re-signs visitors' cookies instead of locking them out.
  APP_SECRET: commaList
    .pipe(
      z
        .array(z.string().min(32, 'each key must be at least 32 characters (e.g. `openssl rand -base64 32`)'))
        .min(1, 'must hold at least one key'),
    )
    .optional(),
  // The key that encrypts stored secrets (docs/decisions/0031-data-key-and-erasure-ledger.md);
  // unset: derived from APP_SECRET. The previous keys (comma-separated) only decrypt, during a
  // rotation (`npm run keys:rotate`).
  DATA_KEY: keyText.optional(),
  DATA_KEY_PREVIOUS: commaList.pipe(z.array(keyText)).optional(),
  // The erasure ledger's copy outside the database (an append-only file, 0600); unset: beside
  // the SQLite file, or data/erasure-ledger with PostgreSQL.
  ERASURE_LEDGER: z.string().trim().min(1).optional(),
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === 'true') return true;
      if (v === 'false') return false;
      if (/^\d+$/.test(v)) return Number(v);
      if (/^[0-9a-fA-F.:/,\s]+$/.test(v)) return v;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count, or proxy addresses/CIDRs' });
      return z.NEVER;
    })
    .default(false),
  GEO_LOOKUP_URL: z
    .string()
    .trim()
    .url('must be a full URL such as https://ipinfo.io')
    .refine(
      (u) => u.startsWith('https://') || u.startsWith('http://127.') || u.startsWith('http://localhost'),
      'must use https://',
    )
    .optional(),
  GEO_LOOKUP_TOKEN: z.string().trim().min(1).optional(),
  // Overload (src/server/plugins/health.ts): past either, writes answer 503 at once.
  OVERLOAD_EVENT_LOOP_DELAY_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(0, 'must be 0 (off) or more')
    .default(1000),
  OVERLOAD_HEAP_MB: z.coerce
    .number({ error: 'must be a number of megabytes' })
    .int('must be a whole number of megabytes')
    .min(0, 'must be 0 (off) or more')
    .default(1024),
  // Turns /metrics on; Prometheus sends it as a bearer token. Long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces (it is sent in an HTTP header)')
    .optional(),
});

/** Where each variable is read: the core above, then each feature's slice. */
export const envSlices = [
  coreEnv,
  mailEnv,
  signupsEnv,
  subscribersEnv,
  broadcastEnv,
  analyticsEnv,
  allowlistEnv,
  referralsEnv,
] as const;

type Fields<T extends readonly z.ZodObject[]> = T extends readonly [
  infer First extends z.ZodObject,
  ...infer Rest extends readonly z.ZodObject[],
]
  ? First['shape'] & Fields<Rest>
  : unknown;

/** The slices' fields as one object's (env.test.ts checks that no variable is in two). */
const fieldsOf = <T extends readonly z.ZodObject[]>(slices: T): Fields<T> =>
  Object.assign({}, ...slices.map((slice) => slice.shape)) as Fields<T>;

const envSchema = z
  .object(fieldsOf(envSlices))
  .transform((e) => ({
    ...e,
    // The address the world uses: canonical links, sitemap, share image.
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
  }))
  .superRefine((e, ctx) => {
    for (const { variable, message } of mailEnvProblems(e)) ctx.addIssue({ code: 'custom', path: [variable], message });
  })
  .transform((e) => ({ ...e, MAIL_FROM: e.MAIL_FROM ?? defaultMailFrom(e.PUBLIC_URL) }));

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** Parses the environment; throws an EnvError whose message names each bad variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "unset": `PORT= npm start` should use the default, not fail.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  // The variable and the problem, never the value: a URL carries its password, a secret is secret,
  // and this goes to the terminal and to whatever collects the process's output.
  const lines = result.error.issues.map((i) => `  - ${String(i.path[0] ?? 'environment')}: ${i.message}`);
  throw new EnvError(`The server cannot start; fix these environment variables:\n${lines.join('\n')}`);
}
