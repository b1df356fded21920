// Every URL the site answers, named once. Imported by the server's routes, the page, the form, the
// beacon and the tests; it imports nothing, so even the dependency-free beacon can use it.
//
// Where a path lives says what it answers (docs/decisions/0009-paths-and-errors.md):
// - at the root: documents, and the form actions that answer with a document. `/signup` is the
//   no-JavaScript form's action (it answers with the page); `/confirm` and `/unsubscribe` are the
//   addresses in our emails, and RFC 8058 has the mail client POST to the very URL it shows, so the
//   one-click unsubscribe stays at `/unsubscribe` too.
// - under /api/: JSON only. Their responses carry the short API security policy.

export const pagePaths = {
  home: '/',
  privacy: '/privacy',
  /** The presale's terms, and who may not join the allowlist (content/messages/<locale>/terms.ts). */
  terms: '/terms',
  signup: '/signup',
  confirm: '/confirm',
  unsubscribe: '/unsubscribe',
  /**
   * The address in the email that asks whether to link a wallet to that email (the allowlist):
   * opening it shows the wallet and a button; only the press (a POST here) links it.
   */
  walletLink: '/wallet-link',
  /**
   * A confirmed person's own invite page (their link, share buttons, how many confirmed), reached
   * by a signed link in their emails (`?id=…&sig=…`); opening it changes nothing.
   */
  invite: '/invite',
  /** Reserved for the operators' console. */
  admin: '/admin',
} as const;

export const API_PREFIX = '/api/';

export const apiPaths = {
  csrf: '/api/csrf',
  visit: '/api/visit',
  /** Reserved: every operators' console endpoint lives below this prefix. */
  admin: '/api/admin',
  /**
   * Mail providers' bounce and complaint webhooks, each checked by the provider's own signature
   * (docs/decisions/0035); a provider's answers 404 while it is not configured.
   */
  postmarkWebhook: '/api/webhooks/postmark',
  mailgunWebhook: '/api/webhooks/mailgun',
  sendgridWebhook: '/api/webhooks/sendgrid',
  sesWebhook: '/api/webhooks/ses',
  // The presale allowlist (docs/decisions/0045-wallet-allowlist.md): a Sign-In with Ethereum
  // message written by the server (POST challenge), signed in the wallet, then posted to join or
  // leave. Status and proof are public reads: whether an address is on the list is what the sale
  // contract's Merkle proof reveals anyway.
  allowlistChallenge: '/api/allowlist/challenge',
  allowlistJoin: '/api/allowlist/join',
  allowlistLeave: '/api/allowlist/leave',
  /** Link the just-joined wallet to an email (the join's token; the sign-up's double opt-in). */
  allowlistLink: '/api/allowlist/link',
  allowlistStatus: '/api/allowlist/status/:address',
  /** `{ root, proof }` from the latest frozen snapshot, for the sale page. */
  allowlistProof: '/api/allowlist/proof/:address',
} as const;

/** For load balancers and orchestrators: is the process alive, and can it serve (store reachable)? */
export const healthPaths = {
  alive: '/healthz',
  ready: '/readyz',
} as const;

/** Prometheus' scrape address: only served when METRICS_TOKEN is set, and only with that token. */
export const metricsPath = '/metrics';

/** Fixed-name files the site serves next to its hashed assets. */
export const filePaths = {
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
  manifest: '/site.webmanifest',
  favicon: '/favicon.svg',
  appleTouchIcon: '/apple-touch-icon.png',
  icon192: '/icon-192.png',
  icon512: '/icon-512.png',
  shareImage: '/og-image.png',
  /** Vite's folder of content-hashed files (cached for a year). */
  assetsDir: '/assets/',
} as const;

/** Pages counted by name in the visitor report; any other path counts as "(other)". */
export const countedPagePaths: readonly string[] = [
  pagePaths.home,
  pagePaths.privacy,
  pagePaths.terms,
  pagePaths.signup,
  pagePaths.confirm,
  pagePaths.unsubscribe,
];

/**
 * The operators' console (docs/decisions/0013-operators-and-sign-in.md). Its documents live below
 * pagePaths.admin (one HTML shell; the React app picks the view from the path), its files below
 * `assets`, and every endpoint below apiPaths.admin. A new view or endpoint is named here (a view is then listed in src/client/admin/console/console-views.tsx).
 */
export const adminPaths = {
  home: '/admin',
  // The views (every entry but home and assets), listed in order with label and role in
  // src/client/admin/console/console-views.tsx.
  subscribers: '/admin/subscribers',
  audience: '/admin/audience',
  broadcast: '/admin/broadcast',
  sessions: '/admin/sessions',
  suppressions: '/admin/suppressions',
  allowlist: '/admin/allowlist',
  referrals: '/admin/referrals',
  audit: '/admin/audit',
  /** The console's own Vite build (content-hashed files, never in the public page's bundle). */
  assets: '/admin/assets/',
} as const;

export const adminApiPaths = {
  /** Step one: email and password. */
  signIn: '/api/admin/sign-in',
  /** Step two: an authenticator code or a recovery code. */
  secondFactor: '/api/admin/sign-in/second-factor',
  signOut: '/api/admin/sign-out',
  /** Who is signed in (401 when nobody is). */
  session: '/api/admin/session',
  /** A fresh authenticator code, for the actions that ask for one. */
  freshProof: '/api/admin/fresh-proof',
  // Passkeys (src/server/features/operators/passkey-routes.ts, decision 0030).
  /** POST, after the password step: a challenge for the pending sign-in's passkeys. */
  signInPasskeyOptions: '/api/admin/sign-in/passkey-options',
  /** POST: a challenge for fresh proof with one of the operator's passkeys. */
  freshProofPasskeyOptions: '/api/admin/fresh-proof/passkey-options',
  /** POST: fresh proof with a passkey (the answer to that challenge). */
  freshProofPasskey: '/api/admin/fresh-proof/passkey',
  /** The operator's passkeys: list (GET); add one (POST, fresh proof). */
  passkeys: '/api/admin/passkeys',
  /** POST, fresh proof: a challenge for adding a passkey. */
  passkeyRegistrationOptions: '/api/admin/passkeys/registration-options',
  /** POST: rename one. */
  passkey: '/api/admin/passkeys/:id',
  /** POST, fresh proof. */
  passkeyRemove: '/api/admin/passkeys/:id/remove',
  sessions: '/api/admin/sessions',
  endSession: '/api/admin/sessions/end',
  endAllSessions: '/api/admin/sessions/end-all',
  audit: '/api/admin/audit',
  /** Broadcasts: list (GET) and create a draft (POST). */
  broadcasts: '/api/admin/broadcasts',
  /** One broadcast: its draft, status and progress (GET); save the draft (POST). */
  broadcast: '/api/admin/broadcasts/:id',
  broadcastPreview: '/api/admin/broadcasts/:id/preview',
  broadcastTest: '/api/admin/broadcasts/:id/test',
  /** Sends to every confirmed subscriber (fresh proof). */
  broadcastSend: '/api/admin/broadcasts/:id/send',
  /** A second operator approves the text they read (fresh proof); any sender revokes it. */
  broadcastApprove: '/api/admin/broadcasts/:id/approve',
  broadcastRevoke: '/api/admin/broadcasts/:id/revoke',
  broadcastPause: '/api/admin/broadcasts/:id/pause',
  broadcastResume: '/api/admin/broadcasts/:id/resume',
  broadcastCancel: '/api/admin/broadcasts/:id/cancel',
  // Subscribers and Audience screens (src/server/features/subscribers/subscriber-routes.ts, audience/audience-routes.ts).
  subscribers: '/api/admin/subscribers',
  /** POST, fresh proof: the filtered list as a CSV download. */
  subscribersCsv: '/api/admin/subscribers/csv',
  /** POST: one person's full record, audited and counted against the daily allowance (decision 0029). */
  subscriberDetails: '/api/admin/subscribers/:id/details',
  subscriberResend: '/api/admin/subscribers/:id/resend',
  /** POST, fresh proof: everything held about one person, as JSON. */
  subscriberExport: '/api/admin/subscribers/:id/export',
  /** POST, fresh proof. */
  subscriberErase: '/api/admin/subscribers/:id/erase',
  audience: '/api/admin/audience',
  audienceLive: '/api/admin/audience/live',
  /** The suppression list (decision 0035): GET to read; POST …/lift (owner, fresh proof) to lift one. */
  suppressions: '/api/admin/suppressions',
  suppressionLift: '/api/admin/suppressions/:id/lift',
  /** POST (sender, fresh proof, audited): the whole list as CSV; it holds no address. */
  suppressionsCsv: '/api/admin/suppressions/csv',
  // The presale allowlist (decision 0045): the list and its snapshots (GET); remove an entry;
  // the CSV (fresh proof); freeze a snapshot (a request, then a second operator's approval, fresh
  // proof); open registration again.
  allowlist: '/api/admin/allowlist',
  allowlistRemove: '/api/admin/allowlist/remove',
  allowlistCsv: '/api/admin/allowlist/csv',
  allowlistFreeze: '/api/admin/allowlist/freeze',
  allowlistFreezeApprove: '/api/admin/allowlist/freeze/approve',
  allowlistReopen: '/api/admin/allowlist/reopen',
  // Invite links: the report (GET; a viewer gets counts only); one referrer (POST,
  // audited); the top referrers with their addresses (POST, fresh proof, audited) as CSV.
  referrals: '/api/admin/referrals',
  referrerDetails: '/api/admin/referrals/:id/details',
  referrersCsv: '/api/admin/referrals/csv',
} as const;

/** A path of adminApiPaths with its `:id` filled in. */
export const withId = (path: string, id: string): string => path.replace(':id', encodeURIComponent(id));

/** A person's console endpoint with their id filled in. */
export const subscriberApiPath = (
  path: (typeof adminApiPaths)['subscriberDetails' | 'subscriberResend' | 'subscriberExport' | 'subscriberErase'],
  id: string,
): string => withId(path, id);

export const isApiPath = (url: string): boolean => url.startsWith(API_PREFIX);
