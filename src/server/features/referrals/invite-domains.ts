import { createRequire } from 'node:module';
import { getDomain } from 'tldts';

// Which domains a farm can own: the one-domain rule (docs/decisions/0063) stops counting a
// referrer's invitees at one domain past a threshold, unless that domain is a large public mail
// provider, where every mailbox is someone's own account.

let providers: { domains: ReadonlySet<string>; brands: ReadonlySet<string>; all: ReadonlySet<string> } | undefined;

const readList = (file: string): string[] => {
  const list: unknown = createRequire(import.meta.url)(`email-providers/${file}`);
  return Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : [];
};

/** The first label of a registered domain: `hotmail` of hotmail.co.uk. */
const brandOf = (site: string): string => site.split('.')[0] ?? site;

/**
 * The large public mail providers: email-providers' common.json, the ~350 provider domains with
 * a Majestic Million rank under 100,000 (gmail.com, outlook.com, yahoo.com, gmx.de, qq.com,
 * proton.me, …), kept by its maintainer from goware/emailproviders. Its all.json (~8,700) also
 * lists small providers whose every address a farm could register in bulk, and alias services
 * (33mail.com); those get the threshold, except a large provider's own country domains
 * (hotmail.co.uk, outlook.fr: in all.json under a brand common.json lists). Read once, on first
 * use (a package left external to the server's bundle).
 */
function largeProviders() {
  if (!providers) {
    const domains = new Set(readList('common.json'));
    // Gmail's other name: the same mailboxes (mailbox.ts reads it as gmail.com too).
    domains.add('googlemail.com');
    providers = {
      domains,
      brands: new Set([...domains].map((d) => brandOf(siteOf(d)))),
      all: new Set(readList('all.json')),
    };
  }
  return providers;
}

/**
 * The domain someone registered, under the public suffix list: `a1.farm.co.uk` is `farm.co.uk`,
 * so a catch-all's subdomains are one domain. Private suffixes (blogspot.com, duckdns.org) are
 * not suffixes here: a farm cannot spread over the free subdomains of one dynamic-DNS name.
 */
export const siteOf = (domain: string): string => getDomain(domain) ?? domain;

/** Whether invitees at `domain` (or at its registered domain) are a large provider's users. */
export function isLargePublicProvider(domain: string): boolean {
  const { domains, brands, all } = largeProviders();
  const site = siteOf(domain);
  return domains.has(domain) || domains.has(site) || (all.has(site) && brands.has(brandOf(site)));
}
