// Whether two addresses reach the same mailbox, however they are spelt: an invite from oneself
// does not count (docs/decisions/0060-referral-invites.md).

/** Domains where dots in the local part are ignored (Gmail's rule), and their aliases. */
const dotlessDomains: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches: lower-cased, its `+tag` removed, and for Gmail-style domains
 * the dots in the local part removed and googlemail.com read as gmail.com. Lower-casing the local
 * part is wider than RFC 5321 allows, on purpose: no provider people use tells case apart, and a
 * spelling that only differs in case is the same person for this.
 */
export function mailboxOf(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1).replace(/\.$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const canonical = dotlessDomains[domain];
  if (canonical !== undefined) {
    domain = canonical;
    local = local.replace(/\./g, '');
  }
  return `${local}@${domain}`;
}

/** Whether `a` and `b` are one mailbox in two spellings (or the same spelling). */
export const sameMailbox = (a: string, b: string): boolean => mailboxOf(a) === mailboxOf(b);

/** The domain of an address, lower-cased; null when there is none. */
export function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : address
          .slice(at + 1)
          .trim()
          .toLowerCase()
          .replace(/\.$/, '');
  return domain === '' ? null : domain;
}
