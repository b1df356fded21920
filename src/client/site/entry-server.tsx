import { renderToString } from 'react-dom/server';
import { messagesFor } from '../../../content/messages/catalog.ts';
import type { Locale } from '../../shared/locales.ts';
import type { SitePageProps } from '../../shared/site-pages.ts';
import { countdownSentence as sentenceIn } from './countdown.ts';
import { SitePage } from './site-page.tsx';

// Built by Vite as an SSR bundle (dist/ssr) that the server loads; this is how the server
// prerenders without importing client source directly.
export function renderSitePage(props: SitePageProps): string {
  return renderToString(<SitePage {...props} />);
}

// The countdown's words, so the server can tell when the home page would read differently and
// render it again (src/server/features/site/site-files.ts) with exactly what the page itself says.
export const countdownSentence = (locale: Locale, opensAtMs: number, nowMs: number): string =>
  sentenceIn(messagesFor(locale).countdown, opensAtMs, nowMs);
