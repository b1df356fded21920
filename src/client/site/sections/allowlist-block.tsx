import { pagePaths } from '../../../shared/paths.ts';
import { signupLimits } from '../../../shared/signup-schema.ts';
import { countryListIn } from '../../../shared/countries.ts';
import type { TermsProps, WalletProps } from '../../../shared/site-pages.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { Rich } from '../rich-text.tsx';
import { Island } from '../islands/island.tsx';
import { usePage } from '../page-context.tsx';

/** The block's id: the header's "Join the Allowlist" links here. */
export const allowlistAnchor = 'allowlist';

// The allowlist's block on the home page (docs/decisions/0045-wallet-allowlist.md). Its words are
// server-rendered HTML; only the panel under them is an island (plain script, loaded at the first
// sign of intent), which fills the wallet list, the status and the action button it finds here.
// With JavaScript off the page is complete and says what joining needs (true with it on, too,
// so it is plain text rather than a <noscript>).
export function AllowlistBlock({ wallet, terms }: { wallet: WalletProps; terms: TermsProps | undefined }) {
  const { words, locale, href, content } = usePage();
  // The same line for everyone: nothing here depends on where the visitor is.
  const { restrictedCountries } = terms ?? content.presaleTerms;
  const countries =
    restrictedCountries.length === 0 ? null : countryListIn(localeInfo[locale].tag, restrictedCountries);
  const { walletPageWords } = words.allowlist;
  const signupMessages = words.signup;
  return (
    <section className="allowlist" id={allowlistAnchor} aria-labelledby="allowlist-title">
      <h2 id="allowlist-title">{walletPageWords.heading}</h2>
      {wallet.mode === 'closed' ? (
        <p>{walletPageWords.closed}</p>
      ) : (
        <>
          <p>{walletPageWords.intro}</p>
          <p className="allowlist-terms">
            <Rich text={walletPageWords.whoMayJoin({ countries, terms: href(pagePaths.terms) })} />
          </p>
          <Island name="allowlist" props={{ chainId: wallet.chainId, locale }}>
            <div className="allowlist-panel">
              <button type="button" className="button button-primary" data-allowlist="connect">
                {walletPageWords.connect}
              </button>
              {/* The status first: "Choose your wallet:" reads before the wallets it introduces. */}
              <p className="form-status" role="status" data-allowlist="status"></p>
              <ul className="allowlist-wallets" data-allowlist="wallets" hidden></ul>
              <div className="allowlist-links" data-allowlist="links" hidden></div>
              <button type="button" className="button button-primary" data-allowlist="action" hidden></button>
              {/* Offered once a join has just been signed (the join's token is the wallet's proof;
                  decision 0045): the sign-up's own fields and consent, so its double opt-in. */}
              <form className="signup-form allowlist-email" data-allowlist="email" hidden>
                <p>{walletPageWords.emailOffer}</p>
                <div className="field">
                  <label htmlFor="allowlist-name">{signupMessages.labels.name}</label>
                  <input
                    id="allowlist-name"
                    name="name"
                    type="text"
                    autoComplete="name"
                    required
                    maxLength={signupLimits.name}
                  />
                </div>
                <div className="field">
                  <label htmlFor="allowlist-email">{signupMessages.labels.email}</label>
                  <input
                    id="allowlist-email"
                    name="email"
                    type="email"
                    autoComplete="email"
                    inputMode="email"
                    required
                    maxLength={signupLimits.email}
                  />
                </div>
                <p className="consent">
                  {signupMessages.consent} <a href={href(pagePaths.privacy)}>{signupMessages.privacyLink}</a>
                </p>
                <button className="button button-primary" type="submit">
                  {walletPageWords.emailSubmit}
                </button>
              </form>
            </div>
          </Island>
          <p className="allowlist-never">{walletPageWords.never}</p>
          <p className="allowlist-never">{walletPageWords.needs}</p>
        </>
      )}
    </section>
  );
}
