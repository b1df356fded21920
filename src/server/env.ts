import { z } from 'zod';
import { sendgridKey } from './features/mail/index.ts';
import { regionOfTopic } from './features/mail/index.ts';
import { isSelector, readDkimKey } from './features/mail/index.ts';

/**
 * A 32-byte key written as 64 hex digits or as base64 / base64url (43 characters, `=` optional),
 * e.g. `openssl rand -base64 32`. Anything else is refused rather than stretched or cut.
 */
export function parseKeyText(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

const keyText = z
  .string()
  .refine(
    (v) => parseKeyText(v) !== null,
    'must be 32 random bytes as base64 or 64 hex digits (e.g. `openssl rand -base64 32`)',
  );

// Every setting the server reads, read once at start. Defaults make a fresh clone work.
const envSchema = z
  .object({
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
    SMTP_URL: z
      .string()
      .trim()
      .regex(/^smtps?:\/\/.+/, 'must be smtp://user:pass@host:port or smtps://…')
      .optional(),
    // Shared limits across instances (src/server/plugins/redis.ts); unset: each instance counts alone.
    REDIS_URL: z
      .string()
      .trim()
      .regex(/^rediss?:\/\/.+/, 'must be redis://[user:pass@]host:6379[/db] or rediss://… (TLS)')
      .optional(),
    // Every key this app writes starts with it, so two deployments (or test runs) can share a server.
    REDIS_KEY_PREFIX: z
      .string()
      .trim()
      .regex(/^[\w:.-]{1,64}$/, 'must be 1–64 letters, digits, and _ : . -')
      .default('dh:'),
    MAIL_FROM: z.string().trim().min(3, 'must be an address such as "Diamond Hand <hello@example.com>"').optional(),
    OUTBOX_DIR: z.string().trim().default('data/outbox'),
    // Where bounces come back (the VERP envelope sender bounces+<signed id>@…); unset: MAIL_FROM's domain.
    BOUNCE_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a domain name such as bounces.example.com',
      )
      .optional(),
    // The mailbox the VERP addresses deliver to, watched with IMAP IDLE for DSNs and feedback reports.
    BOUNCE_IMAP_URL: z
      .string()
      .trim()
      .regex(
        /^imaps?:\/\/[^@/]+@[^/]+/,
        'must be imaps://user:password@host:993/INBOX (or imap:// for a mailbox on this machine)',
      )
      .optional(),
    // The poll beside IDLE, for a server without it or a notification lost while reconnecting.
    BOUNCE_IMAP_POLL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
    // DKIM signing by the app (docs/decisions/0040): the PEM itself (`\n` for its line breaks
    // allowed) or the path of a file holding it; read and checked here, so a bad key stops the start.
    DKIM_PRIVATE_KEY: z
      .string()
      .transform((v, ctx) => {
        try {
          return readDkimKey(v).pem;
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: error instanceof Error ? error.message : 'is not a usable DKIM key',
          });
          return z.NEVER;
        }
      })
      .optional(),
    DKIM_SELECTOR: z
      .string()
      .trim()
      .refine(isSelector, 'must be a DNS label such as dh2026 (letters, digits and hyphens; dots between labels)')
      .optional(),
    // The d= of the signature; unset: MAIL_FROM's domain (what DMARC aligns with).
    DKIM_DOMAIN: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a domain name such as example.com',
      )
      .optional(),
    // Providers' bounce and complaint webhooks (docs/decisions/0035); each unset: its route answers 404.
    POSTMARK_WEBHOOK_USER: z
      .string()
      .trim()
      .min(1)
      .regex(/^[^:]+$/, 'must not contain ":"')
      .optional(),
    POSTMARK_WEBHOOK_PASSWORD: z
      .string()
      .min(16, 'must be at least 16 characters (e.g. `openssl rand -base64 24`)')
      .optional(),
    MAILGUN_WEBHOOK_SIGNING_KEY: z
      .string()
      .trim()
      .min(16, 'must be the HTTP webhook signing key Mailgun shows')
      .optional(),
    SENDGRID_WEBHOOK_PUBLIC_KEY: z
      .string()
      .trim()
      .refine((v) => {
        try {
          sendgridKey(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be the verification key SendGrid shows (an ECDSA P-256 public key, base64)')
      .optional(),
    SES_SNS_TOPIC_ARN: z
      .string()
      .trim()
      .refine(
        (v) => regionOfTopic(v) !== null,
        'must be an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:ses-bounces',
      )
      .optional(),
    // Broadcast emails each instance sends per second at most. 5 stays under the common limits of
    // shared SMTP relays and new sending domains (about 10/s at the large providers, less while a
    // domain builds its reputation), and still sends 18,000 an hour.
    MAIL_RATE_PER_SEC: z.coerce
      .number({ error: 'must be a number of emails per second' })
      .positive('must be more than 0 emails per second')
      .max(1000, 'must be at most 1000 emails per second')
      .default(5),
    // Emails each instance has in their SMTP exchange at once, over as many pooled connections.
    // 4: a confirmation rarely waits (broadcast mail may use all but one), the sending is no longer
    // one round trip at a time, and it stays under the 5–10 simultaneous connections that shared
    // relays and the large providers allow per client.
    MAIL_CONCURRENCY: z.coerce
      .number({ error: 'must be a whole number of emails sent at once' })
      .int('must be a whole number of emails sent at once')
      .min(1, 'must be at least 1 email sent at once')
      .max(50, 'must be at most 50 emails sent at once (mail servers refuse more connections than that)')
      .default(4),
    // How many people a broadcast to the list involves (decision 0028): 2, the author and a second
    // operator who approves exactly the text that goes out; 1 only for a team of one, said aloud.
    BROADCAST_APPROVALS: z
      .string()
      .trim()
      .transform((v, ctx) => {
        if (v === '1' || v === '2') return Number(v) as 1 | 2;
        ctx.addIssue({
          code: 'custom',
          message:
            'must be 2 (a second operator approves each broadcast: the default) or 1 (a team of one: nobody checks sends)',
        });
        return z.NEVER;
      })
      .default(2),
    // A key ring for signed cookies: the first key signs, the ones after it (comma-separated) still
    // verify, so a rotation re-signs visitors' cookies instead of locking them out.
    APP_SECRET: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
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
    DATA_KEY_PREVIOUS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .pipe(z.array(keyText))
      .optional(),
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
    SIGNUP_MIN_FILL_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .min(0, 'must be 0–3 seconds')
      .max(3, 'must be 0–3 seconds (longer would stop fast typists)')
      .default(2),
    VISIT_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1 day')
      .max(3650, 'must be at most 3650 days')
      .default(90),
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
    VISIT_RATE_LIMIT: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .default(10),
    // Turns /metrics on; Prometheus sends it as a bearer token. Long enough not to be guessed.
    METRICS_TOKEN: z
      .string()
      .trim()
      .min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces (it is sent in an HTTP header)')
      .optional(),
    // Personal records (a person's details, a search, a row exported) an operator reads per UTC day
    // before each further read needs an authenticator code (docs/decisions/0029).
    PERSONAL_DATA_DAILY_ALLOWANCE: z.coerce
      .number({ error: 'must be a whole number of records per operator per day' })
      .int('must be a whole number of records per operator per day')
      .min(0, 'must be 0 (every read needs a code) or more')
      .max(1_000_000, 'must be at most 1000000 records per day')
      .default(200),
    SIGNUP_RATE_LIMIT: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(10),
    // The presale allowlist (docs/decisions/0045-wallet-allowlist.md): messages asked for, joins
    // and leaves per minute per client network (each a separate count).
    ALLOWLIST_RATE_LIMIT: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(20),
    // An Ethereum node's JSON-RPC address: with it, smart-contract wallets (EIP-1271, EIP-6492) can
    // join the allowlist; without it they are told, in words, that they cannot yet.
    ETH_RPC_URL: z
      .string()
      .trim()
      .url('must be a full URL such as https://ethereum-rpc.example')
      .refine((u) => /^https?:\/\//.test(u), 'must start with https:// (or http:// for a node of your own)')
      .optional(),
  })
  .transform((e) => ({
    ...e,
    // The address the world uses: canonical links, sitemap, share image.
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
  }))
  .superRefine((e, ctx) => {
    if ((e.POSTMARK_WEBHOOK_USER === undefined) !== (e.POSTMARK_WEBHOOK_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['POSTMARK_WEBHOOK_PASSWORD'],
        message: 'must be set together with POSTMARK_WEBHOOK_USER (both or neither)',
      });
    }
    if (e.DKIM_PRIVATE_KEY !== undefined && e.DKIM_SELECTOR === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_SELECTOR'],
        message:
          'must be set when DKIM_PRIVATE_KEY is: the DNS name <selector>._domainkey.<domain> holds the public key',
      });
    }
    if (e.DKIM_PRIVATE_KEY === undefined && (e.DKIM_SELECTOR !== undefined || e.DKIM_DOMAIN !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DKIM_PRIVATE_KEY'],
        message: 'must be set when DKIM_SELECTOR or DKIM_DOMAIN is (nothing can be signed without the key)',
      });
    }
  })
  .transform((e) => ({
    ...e,
    MAIL_FROM: e.MAIL_FROM ?? `Diamond Hand <no-reply@${new URL(e.PUBLIC_URL).hostname}>`,
  }));

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
