import { renderToString } from 'react-dom/server';
import type { SitePageProps } from '../../shared/site-pages.ts';
import { SitePage } from './site-page.tsx';

// Built by Vite as an SSR bundle (dist/ssr) that the server loads; this is how the server
// prerenders without importing client source directly.
export function renderSitePage(props: SitePageProps): string {
  return renderToString(<SitePage {...props} />);
}

// The countdown's words, so the server can tell when the home page would read differently and
// render it again (src/server/site/site-files.ts) with exactly what the page itself says.
export { countdownSentence } from './countdown.ts';
