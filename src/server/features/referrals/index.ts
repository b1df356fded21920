// The referrals feature's door (invite links, docs/decisions/0060-referral-invites.md): what other
// features, app.ts and the scripts may use. One line per export, so the console's files add theirs.
export { referralsFeature, type Referrals, type ReferralsOptions } from './referrals-plugin.ts';
export { referralsEnv, referralCapsOf, type ReferralCaps } from './referrals-config.ts';
// For later emails (the broadcast's footer): the person's signed invite page.
export { invitePageUrl } from './invite-links.ts';
// For the subscriber CSV: each person's confirmed invites.
export { confirmedInvitesOf } from './referral-store.ts';
// For the console: the Referrals view's routes; for the Audience report: sign-ups by invite.
export { registerReferralConsoleRoutes } from './referrals-console-routes.ts';
export { signupsByInvite } from './referrals-report.ts';
