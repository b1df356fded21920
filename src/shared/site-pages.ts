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
  /** The 'notice' page: what happened after a confirm or unsubscribe link was opened. */
  notice?: { title: string; message: string };
}

export const isSitePageName = (v: unknown): v is SitePageName =>
  typeof v === 'string' && (sitePages as readonly string[]).includes(v);
