export {
  buttonEmail,
  confirmedRecipient,
  confirmedSubscribers,
  hashToken,
  issueLinkToken,
  linkComposerOptions,
  linkPageReplies,
  linkTokens,
  signupBatchWith,
  signupsPerDay,
  signupsPerLocale,
  unsubscribeUrl,
} from './queries.ts';
export type { LinkComposerOptions } from './queries.ts';
export { CONFIRMATION_COOLDOWN_MS, CONFIRMATION_KIND } from './signup-store.ts';
export { signupsEnv } from './signups-config.ts';
export { signupsFeature } from './signups-plugin.ts';
