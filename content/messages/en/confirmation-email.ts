// The confirmation email, in English: subject, and the words of its text and HTML bodies
// (src/server/features/signups/confirmation-email.ts lays them out). It carries nothing the person typed
// (decision 0011). docs/decisions/0043-messages-as-codes.md
import type { ConfirmationEmailMessages } from '../../../src/shared/messages/emails.ts';

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}

export const confirmationEmailMessages: ConfirmationEmailMessages = {
  subject: ({ site }: Site): string => `Confirm your sign-up to ${site}`,
  hello: 'Hello,',
  thanks: ({ site }: Site): string => `Thanks for joining the ${site} list. Please confirm your email address:`,
  /** After `thanks` in the plain-text body, where there is no button. */
  openAndPress: 'open this link and press the button on the page:',
  button: 'Confirm my sign-up',
  pasteLink: 'Or paste this link into your browser:',
  validity:
    'The link works once and for 7 days. If you did not sign up, ignore this email: you will not hear from us again.',
  stop: ({ name }: { name: string }): string => `Stop all emails from ${name}`,
};
