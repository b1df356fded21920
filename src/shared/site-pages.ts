// The public routes and the shape the server hands to the client for hydration. Shared so the
// server's render and the browser's hydrate agree on the exact same props.
export const sitePages = ['home', 'privacy', 'not-found'] as const;
export type SitePageName = (typeof sitePages)[number];

export interface SitePageProps {
  page: SitePageName;
  /** The year printed in the footer, fixed by the server so hydration matches. */
  year: number;
}

export const isSitePageName = (v: unknown): v is SitePageName =>
  typeof v === 'string' && (sitePages as readonly string[]).includes(v);

export const apiPaths = {
  signup: '/signup',
} as const;
