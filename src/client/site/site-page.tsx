import { useEffect } from 'react';
import type { SitePageProps } from '../../shared/site-pages.ts';
import { HomePage } from './home-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { NoticePage } from './notice-page.tsx';
import { PrivacyPage } from './privacy-page.tsx';
import { Clouds } from './sections/clouds.tsx';
import { SiteFooter } from './sections/site-footer.tsx';
import { SiteHeader } from './sections/site-header.tsx';

function PageBody({ page, signup, notice }: Omit<SitePageProps, 'year'>) {
  switch (page) {
    case 'home':
      return <HomePage signup={signup} />;
    case 'notice':
      return <NoticePage notice={notice} />;
    case 'privacy':
      return <PrivacyPage />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

/** The whole visible page: what the server renders and the browser hydrates, given the same props. */
export function SitePage({ page, year, signup, notice }: SitePageProps) {
  // A public "the page is interactive now" mark (effects run only in the browser, after
  // hydration): browser tests and monitoring wait for it instead of guessing.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <>
      <Clouds />
      <div className="page">
        <SiteHeader />
        <main id="main">
          <PageBody page={page} signup={signup} notice={notice} />
        </main>
        <SiteFooter year={year} />
      </div>
    </>
  );
}
