import { messagesFor } from '../../../content/messages/catalog.ts';
import type { Messages } from '../../../content/messages/messages.ts';
import type { SitePageProps } from '../../shared/site-pages.ts';
import { HomePage } from './home-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { NoticePage } from './notice-page.tsx';
import { PrivacyPage } from './privacy-page.tsx';
import { Clouds } from './sections/clouds.tsx';
import { SiteFooter } from './sections/site-footer.tsx';
import { SiteHeader } from './sections/site-header.tsx';

function PageBody({
  page,
  signup,
  notice,
  presale,
  wallet,
  words,
}: Omit<SitePageProps, 'year' | 'locale'> & { words: Messages }) {
  switch (page) {
    case 'home':
      return <HomePage signup={signup} presale={presale} wallet={wallet} words={words} />;
    case 'notice':
      return <NoticePage notice={notice} words={words.pageChrome} />;
    case 'privacy':
      return <PrivacyPage words={words.privacy} />;
    case 'not-found':
      return <NotFoundPage words={words.pageChrome} />;
  }
}

/**
 * The whole visible page, rendered by the server only. The browser never hydrates it as a whole:
 * the few parts that respond to a person are islands (see islands/island.tsx) that wake on
 * their own.
 */
export function SitePage({ page, year, locale, signup, notice, presale, wallet }: SitePageProps) {
  const words = messagesFor(locale);
  return (
    <>
      <Clouds />
      <div className="page">
        <SiteHeader wallet={wallet} />
        <main id="main">
          <PageBody page={page} signup={signup} notice={notice} presale={presale} wallet={wallet} words={words} />
        </main>
        <SiteFooter year={year} words={words.pageChrome} />
      </div>
    </>
  );
}
