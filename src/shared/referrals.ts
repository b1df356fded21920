// Invite links (docs/decisions/0060-referral-invites.md): what the home page's address, the form
// and the server agree on. A code is 128 random bits in base64url (22 characters); anything else
// in its place is ignored, never refused, so a mangled link still signs a person up.

/** The query a friend's invite link carries on the home page: `/?invite=CODE`. */
export const inviteQueryName = 'invite';

const inviteCodePattern = /^[A-Za-z0-9_-]{22}$/;

/** Whether `value` is spelt as an invite code (whether one exists is the server's to know). */
export const isInviteCode = (value: unknown): value is string =>
  typeof value === 'string' && inviteCodePattern.test(value);

/** What the confirmed page and the invite page show: the link, how to share it, how many counted. */
export interface InviteView {
  /** The invite link itself (absolute). */
  url: string;
  /** People who came through it and confirmed, and counted. */
  count: number;
  /** Plain share links (no third-party script): X's intent, Telegram's share URL, mailto:. */
  share: { x: string; telegram: string; email: string };
  /** What invites earn, in the team's words from the content file; unset: nothing said. */
  reward?: string;
  /** The signed address of the person's own invite page (on the confirmed page). */
  pageUrl?: string;
}
