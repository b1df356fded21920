import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { isSitePageName, type SitePageProps } from '../../shared/site-pages.ts';
import { SitePage } from './site-page.tsx';
import './styles.css';

// The server wrote these props; if they are missing or damaged the page still reads fine without
// hydration, so fail quietly rather than render something different.
function parseProps(raw: string | undefined): SitePageProps | null {
  try {
    const props = JSON.parse(raw ?? 'null') as Partial<SitePageProps> | null;
    return props && isSitePageName(props.page) && Number.isInteger(props.year) ? (props as SitePageProps) : null;
  } catch {
    return null;
  }
}

// The product asks for the page to open at the top, even when the browser would restore an old
// scroll position; a link to a fragment (e.g. a form result at #stay-updated) still wins.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
if (location.hash === '') window.scrollTo(0, 0);

const root = document.getElementById('root');
const props = parseProps(root?.dataset.props);
// As a transition, hydration is time-sliced: React yields to the browser every few milliseconds
// instead of holding the main thread (and a tap) for the whole tree.
if (root && props) startTransition(() => void hydrateRoot(root, <SitePage {...props} />));
