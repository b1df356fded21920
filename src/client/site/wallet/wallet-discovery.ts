// Finding the visitor's wallets by the standards, by hand: EIP-6963 (multi-wallet discovery) with
// the single `window.ethereum` of EIP-1193 as the fail-over when nothing announces. No wallet kit:
// the ones that do this cost 228–853 KB gzip (docs/decisions/0045-wallet-allowlist.md); this is a
// few hundred bytes, and mipd, the library wagmi uses for it, is a store around the same two events.
// https://eips.ethereum.org/EIPS/eip-6963

/** An EIP-1193 provider: only what this page uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
  on?(event: string, listener: (value: unknown) => void): void;
}

interface WalletInfo {
  uuid: string;
  name: string;
  /** A data: URI, shown only through <img> (EIP-6963: never as markup); '' when unusable. */
  icon: string;
  rdns: string;
}

export interface FoundWallet {
  info: WalletInfo;
  provider: Eip1193Provider;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** An announcement's detail, checked: a page cannot trust what another script dispatches. */
function readAnnouncement(detail: unknown): FoundWallet | null {
  if (!isObject(detail) || !isObject(detail.info) || !isObject(detail.provider)) return null;
  const { uuid, name, icon, rdns } = detail.info;
  const provider = detail.provider as unknown as Eip1193Provider;
  if (typeof uuid !== 'string' || !uuid || typeof name !== 'string' || typeof provider.request !== 'function')
    return null;
  return {
    // Only an inline image: an http(s) icon would be a request to a third party.
    info: {
      uuid,
      name: name.slice(0, 60),
      icon: typeof icon === 'string' && icon.startsWith('data:image/') ? icon : '',
      rdns: typeof rdns === 'string' ? rdns : '',
    },
    provider,
  };
}

/**
 * Starts listening for announcements, for the page's life (the EIP says never to stop: a wallet
 * may announce late), then asks every wallet to announce. A second announcement with a uuid
 * already seen is ignored. `onChange` runs after each new wallet.
 */
export function discoverWallets(onChange: () => void): Map<string, FoundWallet> {
  const found = new Map<string, FoundWallet>();
  window.addEventListener('eip6963:announceProvider', (event) => {
    const wallet = readAnnouncement((event as CustomEvent<unknown>).detail);
    if (!wallet || found.has(wallet.info.uuid)) return;
    found.set(wallet.info.uuid, wallet);
    onChange();
  });
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  return found;
}

/** The legacy injected provider, when a wallet put one on the page and announced nothing. */
export function injectedWallet(name: string): FoundWallet | null {
  const provider = (window as { ethereum?: unknown }).ethereum;
  if (!isObject(provider) || typeof provider.request !== 'function') return null;
  return {
    info: { uuid: 'window.ethereum', name, icon: '', rdns: '' },
    provider: provider as unknown as Eip1193Provider,
  };
}

/** EIP-1193's "the user rejected the request". */
export const isUserRejection = (error: unknown): boolean => isObject(error) && error.code === 4001;
