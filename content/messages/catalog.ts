// Every surface's words by locale, for the server (which renders pages, answers and emails in the
// locale it is given). The English files set the types: a locale added below must give every
// surface with the same keys and the same parameters, or this file does not compile.
// The browser never imports this file: an island imports its own surface's file (`./en/signup.ts`),
// so its script carries one locale's words for one surface (decision 0043).
// docs/decisions/0043-messages-as-codes.md
import type { ConfirmationEmailMessages } from './en/confirmation-email.ts';
import type { CountdownLabels, CountdownMessages } from './en/countdown.ts';
import type { HttpErrorMessages } from './en/http-errors.ts';
import type { LinkPageMessages } from './en/link-pages.ts';
import type { PageChromeMessages } from './en/page-chrome.ts';
import type { PrivacyMessages } from './en/privacy.ts';
import type { SignupAnswers, SignupMessages } from './en/signup.ts';
import type * as walletMessages from './en/wallet.ts';
import type * as connectionMessages from './en/connection.ts';
import type * as allowlistMessages from './en/allowlist.ts';
import { messages as ar } from './ar/index.ts';
import { messages as en } from './en/index.ts';
import { messages as es } from './es/index.ts';
import type { Locale } from './locales.ts';
import { messages as ptBr } from './pt-br/index.ts';
import { messages as zhCn } from './zh-cn/index.ts';

/** A surface kept as named constants (wallet, connection): its names, each any string. */
type Words<Module> = { readonly [K in keyof Module]: string };

/** One locale's words, surface by surface, typed by the English files. */
export interface Messages {
  countdown: CountdownMessages;
  countdownLabels: CountdownLabels;
  signup: SignupMessages;
  signupAnswers: SignupAnswers;
  wallet: Words<typeof walletMessages>;
  connection: Words<typeof connectionMessages>;
  allowlist: typeof allowlistMessages;
  pageChrome: PageChromeMessages;
  privacy: PrivacyMessages;
  linkPages: LinkPageMessages;
  confirmationEmail: ConfirmationEmailMessages;
  httpErrors: HttpErrorMessages;
}

export const catalog: Record<Locale, Messages> = { en, es, 'pt-br': ptBr, 'zh-cn': zhCn, ar };

/** The words of `locale`, by surface: `messagesFor(locale).linkPages.expired`. */
export const messagesFor = (locale: Locale): Messages => catalog[locale];
