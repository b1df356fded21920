import { pagePaths } from '../../../shared/paths.ts';
import type { PageChromeMessages } from '../../../../content/messages/en/page-chrome.ts';
import { content, siteName } from '../content.ts';
import { SocialLinks } from './social-links.tsx';

export function SiteFooter({ year, words }: { year: number; words: PageChromeMessages }) {
  return (
    <footer className="site-footer">
      <SocialLinks className="social social-small" words={words} />
      <p>{content.riskNotice}</p>
      <p>
        <a href={pagePaths.privacy}>{words.privacyLink}</a>
      </p>
      <p>{words.copyright({ year, site: siteName })}</p>
    </footer>
  );
}
