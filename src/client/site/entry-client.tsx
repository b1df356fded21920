import { hydrateRoot } from 'react-dom/client';
import { isSitePageName } from '../../shared/site-pages.ts';
import { SitePage } from './site-page.tsx';
import './styles.css';

// The product asks for the page to open at the top, even when the browser would restore an old
// scroll position; a link to a fragment (e.g. a form result at #stay-updated) still wins.
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
if (location.hash === '') window.scrollTo(0, 0);

const root = document.getElementById('root');
const page = root?.dataset.page;
const year = Number(root?.dataset.year);
if (root && isSitePageName(page) && Number.isInteger(year)) {
  hydrateRoot(root, <SitePage page={page} year={year} />);
}
