// The pages the links in our emails open (confirm, unsubscribe) and what pressing their button
// says, in English, by code: src/server/features/signups/link-routes.ts picks the code.
// docs/decisions/0043-messages-as-codes.md
import type { LinkNotice, LinkPageMessages } from '../../../src/shared/messages/link-pages.ts';

export const linkPageMessages: LinkPageMessages = {
  brokenLink: {
    title: 'This link does not work',
    message: 'The link is incomplete. Use the full link from one of our emails.',
  },
  usedLink: {
    title: 'This link does not work',
    message: 'The link is incomplete or was already used. Sign up again on the home page to get a new one.',
  },
  expired: {
    title: 'This link has expired',
    message: 'Confirmation links work for 7 days. Sign up again on the home page and we will send you a new one.',
  },
  alreadyConfirmed: {
    title: 'Already confirmed',
    message: 'This email address was already confirmed. You are on the list.',
  },
  storeDown: ({ seconds }: { seconds: number }): LinkNotice => ({
    title: 'Please try again in a minute',
    message: `Our database is not answering just now, so nothing was changed. Your link still works: open it again in ${seconds} seconds.`,
  }),
  confirmPending: {
    title: 'Confirm your sign-up',
    message:
      'Press the button to confirm that you want emails about the presale at this address. If you did not sign up, close this page: nothing will happen.',
    button: 'Confirm my sign-up',
  },
  confirmed: {
    title: 'You are on the list',
    message: 'Your email address is confirmed. You will hear from us the moment the presale opens.',
  },
  unsubscribeBroken: {
    title: 'This link does not work',
    message: 'The unsubscribe link is incomplete. Use the full link from one of our emails.',
  },
  unsubscribePending: {
    title: 'Unsubscribe from our emails?',
    message: 'Press the button to stop all emails from us to this address. You can sign up again at any time.',
    button: 'Unsubscribe me',
  },
  unsubscribed: {
    title: 'You are unsubscribed',
    message: 'We will not email you again. If you change your mind, sign up again on the home page.',
  },
  // The answers to a mail provider's one-click POST (RFC 8058), which asks for no page.
  oneClickInvalid: 'This unsubscribe link is not valid.',
  oneClickDone: 'Unsubscribed. We will not email you again.',
};
