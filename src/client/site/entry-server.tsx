import { renderToString } from 'react-dom/server';
import type { SitePageProps } from '../../shared/site-pages.ts';
import { SitePage } from './site-page.tsx';

// Built by Vite as an SSR bundle (dist/ssr) that the server loads; this is how the server
// prerenders without importing client source directly.
export function renderSitePage(props: SitePageProps): string {
  return renderToString(<SitePage {...props} />);
}
