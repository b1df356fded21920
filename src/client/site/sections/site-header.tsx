import { pagePaths } from '../../../shared/paths.ts';
import type { WalletProps } from '../../../shared/site-pages.ts';
import logoSvg from '../assets/logo.svg?raw';
import { Island } from '../islands/island.tsx';
import { allowlistAnchor } from './allowlist-block.tsx';
import { usePage } from '../page-context.tsx';
import { InlineSvg } from './inline-svg.tsx';
import { WalletButton } from './wallet-button.tsx';

// While the wallet is 'coming-soon' the button flips (an island, as it always was). Once the
// allowlist opens it is a plain link to the allowlist's block: no script before it is pressed.
export function SiteHeader({ wallet }: { wallet?: WalletProps | undefined }) {
  const { content, words, href } = usePage();
  const walletPageWords = words.allowlist.walletPageWords;
  const buttonWords = words.wallet;
  return (
    <header className="site-header">
      <a className="brand" href={href(pagePaths.home)}>
        <InlineSvg className="brand-logo" svg={logoSvg} />
        <span>
          {`${content.name} `}
          <span className="brand-ticker">{`(${content.ticker})`}</span>
        </span>
      </a>
      {wallet ? (
        <a className="button button-primary wallet-join" href={`${href(pagePaths.home)}#${allowlistAnchor}`}>
          {wallet.mode === 'allowlist' ? walletPageWords.headerJoin : walletPageWords.headerClosed}
        </a>
      ) : (
        <Island name="wallet" props={{ words: buttonWords }}>
          <WalletButton words={buttonWords} />
        </Island>
      )}
    </header>
  );
}
