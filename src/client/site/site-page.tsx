import type { SitePageProps } from '../../shared/site-pages.ts';
import { HomePage } from './home-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { NoticePage } from './notice-page.tsx';
import { PageContextProvider, pageContextFor } from './page-context.tsx';
import { PrivacyPage } from './privacy-page.tsx';
import { TermsPage } from './terms-page.tsx';
import { Clouds } from './sections/clouds.tsx';
import { SiteFooter } from './sections/site-footer.tsx';
import { LanguageOffer } from './sections/language-offer.tsx';
import { SiteHeader } from './sections/site-header.tsx';
import { pagePaths } from '../../shared/paths.ts';

function PageBody({ page, signup, notice, presale, wallet, invite, terms }: Omit<SitePageProps, 'year' | 'locale'>) {
  switch (page) {
    case 'home':
      return <HomePage signup={signup} presale={presale} wallet={wallet} invite={invite} terms={terms} />;
    case 'notice':
      return <NoticePage notice={notice} />;
    case 'privacy':
      return <PrivacyPage />;
    case 'terms':
      return <TermsPage terms={terms} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}

/** Where the language links of a page lead: the same page in each language (the home page for the rest). */
const pathOf = (page: SitePageProps['page']): string =>
  page === 'privacy' ? pagePaths.privacy : page === 'terms' ? pagePaths.terms : pagePaths.home;

/**
 * The whole visible page, rendered by the server only, in the page's locale (its words and the
 * content file's translation, through the page context). The browser never hydrates it as a
 * whole: the few parts that respond to a person are islands (see islands/island.tsx) that wake
 * on their own.
 */
export function SitePage({ page, year, locale, signup, notice, presale, wallet, invite, terms }: SitePageProps) {
  return (
    <PageContextProvider value={pageContextFor(locale)}>
      <Clouds />
      <div className="page">
        <SiteHeader wallet={wallet} />
        <main id="main">
          <PageBody
            page={page}
            signup={signup}
            notice={notice}
            presale={presale}
            wallet={wallet}
            invite={invite}
            terms={terms}
          />
        </main>
        <SiteFooter year={year} path={pathOf(page)} />
      </div>
      {page === 'home' ? <LanguageOffer /> : null}
    </PageContextProvider>
  );
}
