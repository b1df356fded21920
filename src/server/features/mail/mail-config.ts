import { z } from 'zod';
import { dkimSigningOf, isSelector, readDkimKey } from './dkim.ts';
import type { MailOptions } from './mail-plugin.ts';
import { regionOfTopic, SnsVerifier, type SnsOptions } from './sns.ts';
import { sendgridKey } from './webhooks.ts';

const domainName = (message: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, message);

/** Mail's slice of the environment (env.ts reads it with the others, in one pass). */
export const mailEnv = z.object({
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/.+/, 'must be smtp://user:pass@host:port or smtps://…')
    .optional(),
  // Unset: "Diamond Hand <no-reply@…>" at PUBLIC_URL's host (defaultMailFrom).
  MAIL_FROM: z.string().trim().min(3, 'must be an address such as "Diamond Hand <hello@example.com>"').optional(),
  OUTBOX_DIR: z.string().trim().default('data/outbox'),
  // Where bounces come back (the VERP envelope sender bounces+<signed id>@…); unset: MAIL_FROM's domain.
  BOUNCE_DOMAIN: domainName('must be a domain name such as bounces.example.com').optional(),
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
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : 'is not a usable DKIM key' });
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
  DKIM_DOMAIN: domainName('must be a domain name such as example.com').optional(),
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
});

type MailEnv = z.infer<typeof mailEnv>;

/** The settings that make sense only together, each problem under the variable to set. */
export function mailEnvProblems(e: MailEnv): { variable: keyof MailEnv; message: string }[] {
  const problems: { variable: keyof MailEnv; message: string }[] = [];
  if ((e.POSTMARK_WEBHOOK_USER === undefined) !== (e.POSTMARK_WEBHOOK_PASSWORD === undefined)) {
    problems.push({
      variable: 'POSTMARK_WEBHOOK_PASSWORD',
      message: 'must be set together with POSTMARK_WEBHOOK_USER (both or neither)',
    });
  }
  if (e.DKIM_PRIVATE_KEY !== undefined && e.DKIM_SELECTOR === undefined) {
    problems.push({
      variable: 'DKIM_SELECTOR',
      message: 'must be set when DKIM_PRIVATE_KEY is: the DNS name <selector>._domainkey.<domain> holds the public key',
    });
  }
  if (e.DKIM_PRIVATE_KEY === undefined && (e.DKIM_SELECTOR !== undefined || e.DKIM_DOMAIN !== undefined)) {
    problems.push({
      variable: 'DKIM_PRIVATE_KEY',
      message: 'must be set when DKIM_SELECTOR or DKIM_DOMAIN is (nothing can be signed without the key)',
    });
  }
  return problems;
}

/** MAIL_FROM when unset: a no-reply address at the host the world knows the site by. */
export const defaultMailFrom = (publicUrl: string): string => `Diamond Hand <no-reply@${new URL(publicUrl).hostname}>`;

/** Mail's slice as read, MAIL_FROM filled in. */
export type MailSettings = Omit<MailEnv, 'MAIL_FROM'> & { MAIL_FROM: string };

/**
 * The mail plugin's options from its settings: the transport, the pace, the bounce mailbox, DKIM,
 * and a verifier for each provider webhook that is configured. `sns`: how SNS certificates are
 * fetched and trusted (tests bring their own CA).
 */
export function mailOptionsOf(
  env: MailSettings,
  sns?: Pick<SnsOptions, 'fetchCert' | 'trustAnchors'>,
): Omit<MailOptions, 'mailer'> {
  return {
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    outboxDir: env.OUTBOX_DIR,
    broadcastRatePerSec: env.MAIL_RATE_PER_SEC,
    concurrency: env.MAIL_CONCURRENCY,
    bounceDomain: env.BOUNCE_DOMAIN,
    bounceImapUrl: env.BOUNCE_IMAP_URL,
    bounceImapPollMs: env.BOUNCE_IMAP_POLL_SECONDS * 1000,
    dkim: dkimSigningOf(env),
    webhooks: {
      postmark:
        env.POSTMARK_WEBHOOK_USER && env.POSTMARK_WEBHOOK_PASSWORD
          ? { user: env.POSTMARK_WEBHOOK_USER, password: env.POSTMARK_WEBHOOK_PASSWORD }
          : undefined,
      mailgunSigningKey: env.MAILGUN_WEBHOOK_SIGNING_KEY,
      sendgridKey: env.SENDGRID_WEBHOOK_PUBLIC_KEY ? sendgridKey(env.SENDGRID_WEBHOOK_PUBLIC_KEY) : undefined,
      ses: env.SES_SNS_TOPIC_ARN ? new SnsVerifier({ topicArn: env.SES_SNS_TOPIC_ARN, ...sns }) : undefined,
    },
  };
}
