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
  signup: '/signup',
  confirm: '/confirm',
  unsubscribe: '/unsubscribe',
  /** Reserved for the operators' console. */
  admin: '/admin',
} as const;

export const API_PREFIX = '/api/';

export const apiPaths = {
  csrf: '/api/csrf',
  visit: '/api/visit',
  /** Reserved: every operators' console endpoint lives below this prefix. */
  admin: '/api/admin',
} as const;

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
  pagePaths.signup,
  pagePaths.confirm,
  pagePaths.unsubscribe,
];

export const isApiPath = (url: string): boolean => url.startsWith(API_PREFIX);
