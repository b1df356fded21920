import logoUrl from '../assets/logo.svg';
import { content } from '../content.ts';
import { Island } from '../islands/island.tsx';
import { WalletButton } from './wallet-button.tsx';

export function SiteHeader() {
  return (
    <header className="site-header">
      <a className="brand" href="/">
        <img src={logoUrl} width="48" height="48" alt="" />
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
