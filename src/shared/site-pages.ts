// The public routes and the shape the server hands to the client for hydration. Shared so the
// server's render and the browser's hydrate agree on the exact same props.
import type { SignupView } from './signup-schema.ts';

export const sitePages = ['home', 'privacy', 'not-found', 'notice'] as const;
export type SitePageName = (typeof sitePages)[number];

/** The presale countdown, when the content file sets a date: what the banner needs to render it. */
export interface PresaleProps {
  /** ISO date-time with its UTC offset, as written in the content file. */
  opensAt: string;
  /** Where the banner links once the presale is open (https). */
  url: string;
  /** When the server rendered this page (ms since the epoch): the countdown it shows is from then. */
  renderedAt: number;
}

export interface SitePageProps {
  page: SitePageName;
  /** The year printed in the footer, from the server's clock. */
  year: number;
  /** Set on the home page when the content file has a presale date; unset means "Coming Soon". */
  presale?: PresaleProps;
  /** The home page after a sign-up posted without JavaScript. */
  signup?: SignupView;
  /** The 'notice' page: what happened after a confirm or unsubscribe link was opened. */
  notice?: { title: string; message: string };
}

export const isSitePageName = (v: unknown): v is SitePageName =>
  typeof v === 'string' && (sitePages as readonly string[]).includes(v);

export const apiPaths = {
  signup: '/signup',
  csrf: '/api/csrf',
  confirm: '/confirm',
  unsubscribe: '/unsubscribe',
} as const;

/**
 * The CSRF token's names on the wire: the server sets the cookie, the client's HTTP helper copies
 * it into the header (signed double-submit; src/server/http/write-protection.ts).
 */
export const xsrf = { cookie: 'XSRF-TOKEN', header: 'x-xsrf-token' } as const;
