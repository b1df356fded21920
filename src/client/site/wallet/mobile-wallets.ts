// With no wallet in this browser (a phone's Safari or Chrome), the visitor can open this page in
// the browser inside their wallet app, which injects its provider. These are each wallet's own
// documented "open this dapp" links; they are plain links, so nothing is requested until the
// visitor follows one.
// MetaMask: https://docs.metamask.io/sdk/ (deeplinks), Trust Wallet: developer.trustwallet.com
// (deeplinking), Coinbase Wallet: docs.cdp.coinbase.com (wallet deeplinks).

export interface MobileWallet {
  name: string;
  link: (page: URL) => string;
}

export const mobileWallets: readonly MobileWallet[] = [
  { name: 'MetaMask', link: (page) => `https://metamask.app.link/dapp/${page.host}${page.pathname}` },
  {
    name: 'Trust Wallet',
    link: (page) => `https://link.trustwallet.com/open_url?coin_id=60&url=${encodeURIComponent(page.href)}`,
  },
  { name: 'Coinbase Wallet', link: (page) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(page.href)}` },
];
