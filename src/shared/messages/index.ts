// The shape of one locale's words, surface by surface: every surface is an interface here, and
// every locale's file (English's too) is typed by it, so a locale whose words miss a key or take
// other parameters does not compile, nor does a code without words. A surface's words are one
// object per surface file (content/messages/<locale>/<surface>.ts), so an island imports its own
// surface's file and its chunk carries one locale's words for one surface (decision 0043).
import type { AllowlistMessages } from './allowlist.ts';
import type { ConnectionWords } from './connection.ts';
import type { CountdownLabels, CountdownMessages } from './countdown.ts';
import type { BroadcastEmailMessages, ConfirmationEmailMessages, WalletLinkMessages } from './emails.ts';
import type { HttpErrorMessages } from './http-errors.ts';
import type { LinkPageMessages } from './link-pages.ts';
import type { PageChromeMessages } from './page-chrome.ts';
import type { PrivacyMessages } from './privacy.ts';
import type { ReferralsMessages } from './referrals.ts';
import type { SignupAnswers, SignupMessages } from './signup.ts';
import type { SuppressionReasonMessages } from './suppression-reasons.ts';
import type { WalletButtonWords } from './wallet.ts';

/** One locale's words, surface by surface. */
export interface Messages {
  countdown: CountdownMessages;
  countdownLabels: CountdownLabels;
  signup: SignupMessages;
  signupAnswers: SignupAnswers;
  wallet: WalletButtonWords;
  connection: ConnectionWords;
  allowlist: AllowlistMessages;
  pageChrome: PageChromeMessages;
  privacy: PrivacyMessages;
  linkPages: LinkPageMessages;
  confirmationEmail: ConfirmationEmailMessages;
  walletLink: WalletLinkMessages;
  broadcastEmail: BroadcastEmailMessages;
  suppressionReasons: SuppressionReasonMessages;
  httpErrors: HttpErrorMessages;
  referrals: ReferralsMessages;
}
