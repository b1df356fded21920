import logoUrl from '../assets/logo.svg';
import { content } from '../content.ts';
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
      <WalletButton />
    </header>
  );
}
