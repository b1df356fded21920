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

// Scroll restoration is turned off by the inline loader (src/server/site/site-build.ts), which
// runs while the page is parsed; by the time this bundle runs the visitor may be reading.

const root = document.getElementById('root');
const props = parseProps(root?.dataset.props);
// As a transition, hydration is time-sliced: React yields to the browser every few milliseconds
// instead of holding the main thread (and a tap) for the whole tree.
if (root && props) startTransition(() => void hydrateRoot(root, <SitePage {...props} />));
