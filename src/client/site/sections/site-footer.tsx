import { pagePaths } from '../../../shared/paths.ts';
import { siteName } from '../content.ts';
import { usePage } from '../page-context.tsx';
import { LanguageLinks } from './language-links.tsx';
import { SocialLinks } from './social-links.tsx';

export function SiteFooter({ year, path }: { year: number; path: string }) {
  const { content, words: all, href } = usePage();
  const words = all.pageChrome;
  return (
    <footer className="site-footer">
      <SocialLinks className="social social-small" />
      <LanguageLinks path={path} />
      <p>{content.riskNotice}</p>
      <p>
        <a href={href(pagePaths.privacy)}>{words.privacyLink}</a>
      </p>
      <p>
        <a href={href(pagePaths.terms)}>{words.terms.link}</a>
      </p>
      <p>{words.copyright({ year, site: siteName })}</p>
    </footer>
  );
}
