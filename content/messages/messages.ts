// The shape of one locale's words, surface by surface, set by the English files: every locale's
// index.ts is typed by it, and catalog.ts holds one per locale. A module of its own so that the
// locales and the catalog each import it and not each other (decision 0043).
import type { BroadcastEmailMessages } from './en/broadcast-email.ts';
import type { SuppressionReasonMessages } from './en/suppression-reasons.ts';
import type { ConfirmationEmailMessages } from './en/confirmation-email.ts';
import type { WalletLinkMessages } from './en/wallet-link.ts';
import type { CountdownLabels, CountdownMessages } from './en/countdown.ts';
import type { HttpErrorMessages } from './en/http-errors.ts';
import type { LinkPageMessages } from './en/link-pages.ts';
import type { PageChromeMessages } from './en/page-chrome.ts';
import type { PrivacyMessages } from './en/privacy.ts';
import type { SignupAnswers, SignupMessages } from './en/signup.ts';
import type * as walletMessages from './en/wallet.ts';
import type * as connectionMessages from './en/connection.ts';
import type * as allowlistMessages from './en/allowlist.ts';

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
  walletLink: WalletLinkMessages;
  broadcastEmail: BroadcastEmailMessages;
  suppressionReasons: SuppressionReasonMessages;
  httpErrors: HttpErrorMessages;
}
