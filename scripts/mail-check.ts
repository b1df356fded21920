// `npm run mail:check`: the DNS records the configured mail domains should publish (SPF, DKIM,
// DMARC, the bounce domain's MX), each looked up and compared. Reads the same environment as the
// server (MAIL_FROM, BOUNCE_DOMAIN, SMTP_URL, BOUNCE_IMAP_URL, DKIM_*). Exit status: 0 every record
// matches, 1 one differs or is missing, 2 DNS could not be reached (nothing was judged), 3 bad settings.
import { Resolver } from 'node:dns/promises';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { readDkimKey } from '../src/server/features/mail/index.ts';
import { checkMailDns, formatMailCheck } from '../src/server/features/mail/index.ts';
import { domainOf } from '../src/server/features/mail/index.ts';

try {
  const env = loadEnv();
  const fromDomain = domainOf(env.MAIL_FROM);
  if (!fromDomain)
    throw new EnvError('MAIL_FROM must be an address with a domain, such as "Diamond Hand <hello@example.com>".');
  const dkim =
    env.DKIM_PRIVATE_KEY && env.DKIM_SELECTOR
      ? {
          selector: env.DKIM_SELECTOR,
          domain: env.DKIM_DOMAIN ?? fromDomain,
          key: readDkimKey(env.DKIM_PRIVATE_KEY).key,
        }
      : undefined;
  // One try, two seconds: an offline machine should hear so at once, not after a minute of retries.
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  const checks = await checkMailDns(
    {
      fromDomain,
      bounceDomain: env.BOUNCE_DOMAIN ?? fromDomain,
      smtpHost: env.SMTP_URL ? new URL(env.SMTP_URL).hostname : undefined,
      imapHost: env.BOUNCE_IMAP_URL ? new URL(env.BOUNCE_IMAP_URL).hostname : undefined,
      dkim,
    },
    resolver,
  );
  console.log(
    `Mail DNS for ${fromDomain} (MAIL_FROM)${env.BOUNCE_DOMAIN ? ` and ${env.BOUNCE_DOMAIN} (BOUNCE_DOMAIN)` : ''}:\n`,
  );
  console.log(formatMailCheck(checks));
  if (checks.some((c) => c.verdict === 'unreachable')) {
    console.log(
      'Some records could not be looked up: DNS did not answer. Run this again on a machine that reaches the internet.',
    );
    process.exitCode = 2;
  } else if (checks.some((c) => c.verdict === 'differs' || c.verdict === 'missing')) process.exitCode = 1;
} catch (error) {
  // A setting in words, never a stack trace (and never a value: the key is secret).
  console.error(error instanceof Error ? error.message : 'The mail settings could not be read.');
  process.exitCode = 3;
}
