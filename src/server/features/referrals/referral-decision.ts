import type { ReferralStatus } from '../../store/schema.ts';
import type { ReferralCaps } from './referrals-config.ts';
import { isDisposableDomain } from './disposable.ts';
import { isLargePublicProvider } from './invite-domains.ts';
import { sameMailbox } from './mailbox.ts';

/** What is known about an invite when the invited person confirms. */
export interface InviteFacts {
  /** The invited person's network keys: at sign-up and at confirmation (null: not known). */
  invitedNetworks: readonly (string | null)[];
  /** The referrer's network keys: where the code was made, and their own sign-up's if invited. */
  referrerNetworks: readonly (string | null)[];
  invitedEmail: string;
  referrerEmail: string;
  /** Another of this referrer's invitees in the same mailbox has counted already. */
  mailboxCounted: boolean;
  /** This referrer's counted invitees, ever, at the invited address's registered domain. */
  countedAtDomain: number;
  /** Invites already counted today for this referrer. */
  countedTodayForReferrer: number;
}

/**
 * Whether an invite counts, and if not why (docs/decisions/0060-referral-invites.md, 0063): one
 * network, one mailbox (the referrer's own, or one that counted for them already), a disposable
 * domain, too many at one private domain, then the referrer's daily cap. The network's daily cap
 * is taken after this, in the store (referral-store.ts). Each refusal is silent to the visitor.
 */
export function decideInvite(facts: InviteFacts, caps: ReferralCaps): Exclude<ReferralStatus, 'pending'> {
  const theirs = new Set(facts.referrerNetworks.filter((k): k is string => k !== null));
  if (facts.invitedNetworks.some((k) => k !== null && theirs.has(k))) return 'same_network';
  if (facts.mailboxCounted || sameMailbox(facts.invitedEmail, facts.referrerEmail)) return 'same_mailbox';
  const at = facts.invitedEmail.lastIndexOf('@');
  const domain = at >= 0 ? facts.invitedEmail.slice(at + 1).toLowerCase() : '';
  if (domain !== '' && isDisposableDomain(domain)) return 'disposable';
  if (domain !== '' && !isLargePublicProvider(domain) && facts.countedAtDomain >= caps.perPrivateDomain)
    return 'one_domain';
  if (facts.countedTodayForReferrer >= caps.perReferrerDaily) return 'capped';
  return 'counted';
}
