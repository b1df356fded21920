import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

// Disposable-address domains from a maintained list (the disposable-email-domains project's,
// packaged by disposable-email-domains-js and republished as it changes): a hand list goes stale
// in weeks. Read once, on first use. docs/decisions/0060-referral-invites.md
let domains: Set<string> | undefined;

/** Whether `domain` (or a domain it is under: `x.mailinator.com`) is a disposable one. */
export function isDisposableDomain(domain: string): boolean {
  domains ??= disposableEmailBlocklistSet();
  const parts = domain.trim().toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < parts.length - 1; i++) if (domains.has(parts.slice(i).join('.'))) return true;
  return false;
}
