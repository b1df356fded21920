import { pagePaths } from '../../../shared/paths.ts';
import logoSvg from '../assets/logo.svg?raw';
import { content } from '../content.ts';
import { Island } from '../islands/island.tsx';
import { InlineSvg } from './inline-svg.tsx';
import { WalletButton } from './wallet-button.tsx';

export function SiteHeader() {
  return (
    <header className="site-header">
      <a className="brand" href={pagePaths.home}>
        <InlineSvg className="brand-logo" svg={logoSvg} />
        <span>
          {`${content.name} `}
          <span className="brand-ticker">{`(${content.ticker})`}</span>
        </span>
      </a>
      <Island name="wallet" props={{}}>
        <WalletButton />
      </Island>
    </header>
  );
}
