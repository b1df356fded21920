// The public routes and the shape the server hands to the client for hydration. Shared so the
// server's render and the browser's hydrate agree on the exact same props.
import type { SignupView } from './signup-schema.ts';

export const sitePages = ['home', 'privacy', 'not-found', 'notice'] as const;
export type SitePageName = (typeof sitePages)[number];

export interface SitePageProps {
  page: SitePageName;
  /** The year printed in the footer, fixed by the server so hydration matches. */
  year: number;
  /** The home page after a sign-up posted without JavaScript. */
  signup?: SignupView;
  /** The 'notice' page: what a confirm or unsubscribe link is about, or what pressing it did. */
  notice?: Notice;
}

export interface Notice {
  title: string;
  message: string;
  /** The one thing to do here: a button that POSTs a plain form (opening the page does nothing). */
  action?: NoticeAction;
}

export interface NoticeAction {
  /** What the button says, e.g. "Confirm my sign-up". */
  label: string;
  /** Where the form posts: one of our own paths (src/shared/paths.ts), with its query if any. */
  href: string;
  /** Hidden fields sent with the press. */
  fields?: Record<string, string>;
}

export const isSitePageName = (v: unknown): v is SitePageName =>
  typeof v === 'string' && (sitePages as readonly string[]).includes(v);
