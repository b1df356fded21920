import type { ReferralStatus } from '../../store/schema.ts';
import type { ReferralCaps } from './referrals-config.ts';
import { isDisposableDomain } from './disposable.ts';
import { sameMailbox } from './mailbox.ts';

/** What is known about an invite when the invited person confirms. */
export interface InviteFacts {
  /** The invited person's network keys: at sign-up and at confirmation (null: not known). */
  invitedNetworks: readonly (string | null)[];
  /** The referrer's network keys: where the code was made, and their own sign-up's if invited. */
  referrerNetworks: readonly (string | null)[];
  invitedEmail: string;
  referrerEmail: string;
  /** Invites already counted today for this referrer, and from the invited sign-up's network. */
  countedTodayForReferrer: number;
  countedTodayFromNetwork: number;
}

/**
 * Whether an invite counts, and if not why (docs/decisions/0060-referral-invites.md): one network,
 * one mailbox, a disposable domain, then the daily caps. Each refusal is silent to the visitor.
 */
export function decideInvite(facts: InviteFacts, caps: ReferralCaps): Exclude<ReferralStatus, 'pending'> {
  const theirs = new Set(facts.referrerNetworks.filter((k): k is string => k !== null));
  if (facts.invitedNetworks.some((k) => k !== null && theirs.has(k))) return 'same_network';
  if (sameMailbox(facts.invitedEmail, facts.referrerEmail)) return 'same_mailbox';
  const at = facts.invitedEmail.lastIndexOf('@');
  if (at >= 0 && isDisposableDomain(facts.invitedEmail.slice(at + 1))) return 'disposable';
  if (facts.countedTodayForReferrer >= caps.perReferrerDaily) return 'capped';
  if (facts.countedTodayFromNetwork >= caps.perNetworkDaily) return 'capped';
  return 'counted';
}
