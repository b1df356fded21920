import { pagePaths } from '../../../shared/paths.ts';
import { content } from '../content.ts';
import { SocialLinks } from './social-links.tsx';

export function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="site-footer">
      <SocialLinks className="social social-small" />
      <p>{content.riskNotice}</p>
      <p>
        <a href={pagePaths.privacy}>Privacy notice</a>
      </p>
      <p>{`© ${year} ${content.name} (${content.ticker})`}</p>
    </footer>
  );
}
