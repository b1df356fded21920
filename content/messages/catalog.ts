// Every surface's words by locale, for the server (which renders pages, answers and emails in the
// locale it is given). The English files set the types: a locale added below must give every
// surface with the same keys and the same parameters, or this file does not compile.
// The browser never imports this file: an island imports its own surface's file (`./en/signup.ts`),
// so its script carries one locale's words for one surface (decision 0043).
// docs/decisions/0043-messages-as-codes.md
import { confirmationEmailMessages, type ConfirmationEmailMessages } from './en/confirmation-email.ts';
import { countdownLabels, countdownMessages, type CountdownLabels, type CountdownMessages } from './en/countdown.ts';
import { httpErrorMessages, type HttpErrorMessages } from './en/http-errors.ts';
import { linkPageMessages, type LinkPageMessages } from './en/link-pages.ts';
import { pageChromeMessages, type PageChromeMessages } from './en/page-chrome.ts';
import { privacyMessages, type PrivacyMessages } from './en/privacy.ts';
import { signupAnswers, signupMessages, type SignupAnswers, type SignupMessages } from './en/signup.ts';
import * as walletMessages from './en/wallet.ts';
import * as connectionMessages from './en/connection.ts';
import * as allowlistMessages from './en/allowlist.ts';
import type { Locale } from './locales.ts';

/** One locale's words, surface by surface, typed by the English files. */
export interface Messages {
  countdown: CountdownMessages;
  countdownLabels: CountdownLabels;
  signup: SignupMessages;
  signupAnswers: SignupAnswers;
  wallet: typeof walletMessages;
  connection: typeof connectionMessages;
  allowlist: typeof allowlistMessages;
  pageChrome: PageChromeMessages;
  privacy: PrivacyMessages;
  linkPages: LinkPageMessages;
  confirmationEmail: ConfirmationEmailMessages;
  httpErrors: HttpErrorMessages;
}

export const catalog: Record<Locale, Messages> = {
  en: {
    countdown: countdownMessages,
    countdownLabels,
    signup: signupMessages,
    signupAnswers,
    wallet: walletMessages,
    connection: connectionMessages,
    allowlist: allowlistMessages,
    pageChrome: pageChromeMessages,
    privacy: privacyMessages,
    linkPages: linkPageMessages,
    confirmationEmail: confirmationEmailMessages,
    httpErrors: httpErrorMessages,
  },
};

/** The words of `locale`, by surface: `messagesFor(locale).linkPages.expired`. */
export const messagesFor = (locale: Locale): Messages => catalog[locale];
