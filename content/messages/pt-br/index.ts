// This locale's surfaces as one object, for catalog.ts (the server's). The browser imports a
// surface's file, never this one (decision 0043).
import type { Messages } from '../../../src/shared/messages/index.ts';
import { broadcastEmailMessages } from './broadcast-email.ts';
import { suppressionReasonMessages } from './suppression-reasons.ts';
import { confirmationEmailMessages } from './confirmation-email.ts';
import { walletLinkMessages } from './wallet-link.ts';
import { connectionWords } from './connection.ts';
import { countdownLabels, countdownMessages } from './countdown.ts';
import { httpErrorMessages } from './http-errors.ts';
import { linkPageMessages } from './link-pages.ts';
import { pageChromeMessages } from './page-chrome.ts';
import { privacyMessages } from './privacy.ts';
import { referralsMessages } from './referrals.ts';
import { signupAnswers, signupMessages } from './signup.ts';
import { walletWords } from './wallet.ts';
import { walletMessages, walletPageWords, walletRefusals } from './allowlist.ts';

export const messages: Messages = {
  countdown: countdownMessages,
  countdownLabels,
  signup: signupMessages,
  signupAnswers,
  wallet: walletWords,
  connection: connectionWords,
  allowlist: { walletPageWords, walletMessages, walletRefusals },
  pageChrome: pageChromeMessages,
  privacy: privacyMessages,
  linkPages: linkPageMessages,
  confirmationEmail: confirmationEmailMessages,
  walletLink: walletLinkMessages,
  broadcastEmail: broadcastEmailMessages,
  suppressionReasons: suppressionReasonMessages,
  httpErrors: httpErrorMessages,
  referrals: referralsMessages,
};
