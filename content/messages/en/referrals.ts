// Invite links, in English: the home page's line for an invited visitor, the invite page, and the
// invite block on the confirmed page. Counts only, never who. docs/decisions/0060-referral-invites.md
import type { ReferralsMessages } from '../../../src/shared/messages/referrals.ts';

export const referralsMessages: ReferralsMessages = {
  invitedLine: 'A friend invited you. Sign up below to hear when the presale opens.',
  page: {
    title: 'Your invite link',
    message: 'Share this link. When a friend signs up through it and confirms their email address, it counts for you.',
  },
  blockHeading: 'Invite a friend',
  linkLabel: 'Your invite link',
  copy: 'Copy link',
  copied: 'Copied',
  shareLabel: 'Share:',
  shareX: 'X (Twitter)',
  shareTelegram: 'Telegram',
  shareEmail: 'Email',
  shareText: 'I am on the list for the presale. Join me:',
  shareSubject: 'Join me on the presale list',
  count: ({ count }) => `Friends who signed up and confirmed: ${count}`,
  rewardHeading: 'What invites earn',
  pageLink: 'Your invite page',
  makeLink: {
    title: 'Your invite link',
    message: 'You do not have an invite link yet. Press the button to make one.',
    button: 'Make my invite link',
  },
  brokenLink: {
    title: 'This link does not work',
    message:
      'The link is incomplete, or the person it was for is no longer on the list. Use the full link from one of our emails.',
  },
  notConfirmed: {
    title: 'Confirm your sign-up first',
    message: 'Your invite link is made once you confirm your email address: use the link in the email we sent you.',
  },
};
