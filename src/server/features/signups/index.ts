// The sign-up feature's door: what other features, app.ts and the scripts may use.
export { confirmedRecipient, confirmedSubscribers, signupsPerDay, signupsPerLocale } from './queries.ts';
// For the console's broadcast: every email to a subscriber carries its unsubscribe link.
export { unsubscribeUrl } from './unsubscribe-link.ts';
// For another feature's email that asks for a press (the allowlist's wallet link): the
// confirmation email's layout, its options and its link tokens (256 random bits; only the hash is
// stored, before the email can leave), and the notice pages its link opens.
export { buttonEmail } from './button-email.ts';
export { issueLinkToken, linkComposerOptions, linkTokens, type LinkComposerOptions } from './link-email.ts';
export { hashToken } from './tokens.ts';
export { linkPageReplies } from './link-pages.ts';
export { CONFIRMATION_COOLDOWN_MS, CONFIRMATION_KIND, signupBatchWith } from './signup-store.ts';
export { signupsEnv } from './signups-config.ts';
export { signupsFeature } from './signups-plugin.ts';
