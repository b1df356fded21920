// The words of invite links (content/messages/<locale>/referrals.ts): the line a visitor who came
// through a friend's link reads on the home page, the person's own invite page, and the invite
// block on the confirmed page and in later emails. Counts only: never who signed up.
// docs/decisions/0060-referral-invites.md

export interface ReferralNotice {
  title: string;
  message: string;
}

export interface ReferralsMessages {
  /** The one line on the home page for a visitor who came through an invite link. */
  invitedLine: string;
  /** The invite page's title and what it is for. */
  page: ReferralNotice;
  /** The heading of the invite block on the confirmed page. */
  blockHeading: string;
  linkLabel: string;
  copy: string;
  copied: string;
  /** Before the share links. */
  shareLabel: string;
  shareX: string;
  shareTelegram: string;
  shareEmail: string;
  /** The text a share link prefills (the link follows it). */
  shareText: string;
  /** The subject of the mailto: share link. */
  shareSubject: string;
  /** How many confirmed people came through the link. */
  count: (p: { count: number }) => string;
  /** The heading above the team's words about what invites earn. */
  rewardHeading: string;
  /** The link to the person's own invite page (confirmed page, emails). */
  pageLink: string;
  /** A confirmed person from before invite links existed: one press makes theirs. */
  makeLink: ReferralNotice & { button: string };
  /** A forged, tampered or stale signed link, or a person no longer on the list. */
  brokenLink: ReferralNotice;
  /** The person is on the list but has not confirmed: there is no invite link yet. */
  notConfirmed: ReferralNotice;
}
