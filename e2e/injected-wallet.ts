// Wallets injected into the page as browser extensions inject theirs: each announces itself by
// EIP-6963 (and answers every request to announce), and answers EIP-1193 requests. The key is
// real and lives in the test process (ox, secp256k1): personal_sign is passed out to it and the
// signature comes back, exactly as a wallet would make it. Every request is recorded, so a test
// can say what the page asked for (and what it never asked for).
import type { Page } from '@playwright/test';
import { Hex } from 'ox';
import { testAccount, type TestAccount } from '../src/server/test/test-account.ts';

export interface InjectedWalletSpec {
  uuid: string;
  name: string;
  /** The chain the wallet is on at the start (hex). */
  chainId: string;
}

/** One key behind every injected wallet; `calls` reads what the page asked of them. */
export async function injectWallets(page: Page, wallets: InjectedWalletSpec[], account: TestAccount = testAccount()) {
  await page.exposeFunction('__dhTestSign', (hexMessage: string, address: string) => {
    if (address.toLowerCase() !== account.address.toLowerCase()) throw new Error(`asked to sign for ${address}`);
    return account.sign(Hex.toString(hexMessage as Hex.Hex));
  });
  await page.addInitScript(
    ({ wallets, address }) => {
      type Listener = (value: unknown) => void;
      const calls: { wallet: string; method: string; params: unknown }[] = [];
      (window as unknown as { __dhWalletCalls: typeof calls }).__dhWalletCalls = calls;
      // What the test does in the wallet itself (another account chosen): events to the page.
      const emitters = new Map<string, (event: string, value: unknown) => void>();
      (window as unknown as { __dhWalletEmit: typeof emitters }).__dhWalletEmit = emitters;
      const sign = (window as unknown as { __dhTestSign: (m: string, a: string) => Promise<string> }).__dhTestSign;
      for (const spec of wallets) {
        let chainId = spec.chainId;
        const listeners = new Map<string, Listener[]>();
        const emit = (event: string, value: unknown) => (listeners.get(event) ?? []).forEach((l) => l(value));
        emitters.set(spec.name, emit);
        const provider = Object.freeze({
          async request({ method, params }: { method: string; params?: unknown[] }) {
            calls.push({ wallet: spec.name, method, params });
            switch (method) {
              case 'eth_requestAccounts':
              case 'eth_accounts':
                return [address.toLowerCase()];
              case 'eth_chainId':
                return chainId;
              case 'wallet_switchEthereumChain': {
                chainId = (params?.[0] as { chainId: string }).chainId;
                emit('chainChanged', chainId);
                return null;
              }
              case 'personal_sign':
                return sign(params?.[0] as string, params?.[1] as string);
              default:
                throw Object.assign(new Error(`The test wallet does not do ${method}`), { code: 4200 });
            }
          },
          on(event: string, listener: Listener) {
            listeners.set(event, [...(listeners.get(event) ?? []), listener]);
          },
        });
        const icon = `data:image/svg+xml,${encodeURIComponent(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#${spec.uuid.slice(0, 6)}"/></svg>`,
        )}`;
        const announce = () =>
          window.dispatchEvent(
            new CustomEvent('eip6963:announceProvider', {
              detail: Object.freeze({
                info: { uuid: spec.uuid, name: spec.name, icon, rdns: `test.${spec.uuid}` },
                provider,
              }),
            }),
          );
        window.addEventListener('eip6963:requestProvider', announce);
        announce();
      }
    },
    { wallets, address: account.address },
  );
  return {
    account,
    /** The wallet tells the page something (EIP-1193 events), as when its user picks another account. */
    emit: (wallet: string, event: string, value: unknown) =>
      page.evaluate(
        ({ wallet, event, value }) =>
          (window as unknown as { __dhWalletEmit: Map<string, (e: string, v: unknown) => void> }).__dhWalletEmit.get(
            wallet,
          )?.(event, value),
        { wallet, event, value },
      ),
    calls: () =>
      page.evaluate(
        () =>
          (window as unknown as { __dhWalletCalls: { wallet: string; method: string; params: unknown }[] })
            .__dhWalletCalls,
      ),
  };
}
