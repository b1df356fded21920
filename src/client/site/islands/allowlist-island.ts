import type { WalletMessages } from '../../../shared/messages/allowlist.ts';
import { localeTag } from '../../../shared/locales.ts';
import { allowlistRoutes as routes } from '../../../shared/allowlist/allowlist-routes.ts';
import { callRoute } from '../../lib/call-route.ts';
import { connectionWords } from '../../lib/connection-words.ts';
import type { ApiResult } from '../../lib/transport.ts';
import { mobileWallets } from '../wallet/mobile-wallets.ts';
import {
  discoverWallets,
  injectedWallet,
  isUserRejection,
  type Eip1193Provider,
  type FoundWallet,
} from '../wallet/wallet-discovery.ts';
import type { IslandProps } from './island-names.ts';
import { islandWords } from './island-words.ts';

// The allowlist's connect (docs/decisions/0045-wallet-allowlist.md): plain script, no React, no
// wallet kit. It finds the wallets (EIP-6963, window.ethereum as fail-over), asks the chosen one
// for an address (eth_requestAccounts) and for the presale's network (eth_chainId,
// wallet_switchEthereumChain), and asks it for one thing more: personal_sign of the message the
// server wrote. It never calls eth_sendTransaction, eth_sign or eth_signTypedData.

/** How long a press waits for a wallet that has not announced itself yet before trying window.ethereum. */
const ANNOUNCE_GRACE_MS = 400;

/** The server's refusal, in its own words (the one error shape). */
class Refused extends Error {}

/**
 * A reply's data, or a throw: the server's refusal in its words, or (nothing reached it, or its
 * answer was unreadable) a plain error, which the island words as the wallet's.
 */
function answer<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  const ownWords = result.status === 0 || result.error.message === connectionWords().unreadable;
  throw ownWords ? new Error(result.error.code) : new Refused(result.error.message);
}

const shortAddress = (address: string) => `${address.slice(0, 5)}…${address.slice(-4)}`;
/** EIP-1193's personal_sign takes the text as UTF-8 bytes in hex. */
const utf8Hex = (text: string) =>
  `0x${Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('')}`;

export async function prepare(props: IslandProps['allowlist']): Promise<(container: HTMLElement) => Promise<void>> {
  const words = await islandWords.allowlist(props.locale);
  return (container) => Promise.resolve(mount(container, props, words));
}

function mount(container: HTMLElement, props: IslandProps['allowlist'], words: WalletMessages): void {
  // The page's language, not the browser's: the sentence around the date is in it.
  const sinceText = (iso: string) =>
    new Date(iso).toLocaleString(localeTag(props.locale), { dateStyle: 'medium', timeStyle: 'short' });
  // The server's markup (sections/allowlist-block.tsx); a part missing fails the island, and the
  // loader marks it so.
  const part = <E extends HTMLElement>(name: string): E => {
    const el = container.querySelector<E>(`[data-allowlist="${name}"]`);
    if (!el) throw new Error(`allowlist markup: no ${name}`);
    return el;
  };
  const connectButton = part<HTMLButtonElement>('connect');
  const list = part<HTMLUListElement>('wallets');
  const status = part('status');
  const links = part('links');
  const action = part<HTMLButtonElement>('action');
  const emailForm = part<HTMLFormElement>('email');
  const chainHex = `0x${props.chainId.toString(16)}`;

  let wallet: FoundWallet | null = null;
  let address: string | null = null;
  let since: string | null = null;
  /** The last join's single-use token: the wallet's proof for linking an email (decision 0045). */
  let linkToken: string | null = null;
  const followed = new WeakSet<Eip1193Provider>();
  /** The page itself asked the wallet to switch: its chainChanged is the answer, not news. */
  let switching = false;

  const say = (text: string) => {
    status.textContent = text;
  };
  const show = (el: HTMLElement, visible: boolean) => {
    el.hidden = !visible;
  };
  const busy = (on: boolean) => {
    connectButton.disabled = on;
    action.disabled = on;
  };
  const fail = (error: unknown) => {
    if (isUserRejection(error)) say(words.declined);
    else if (error instanceof Refused && error.message) say(error.message);
    else say(words.walletError);
  };

  const found = discoverWallets(() => {
    if (!list.hidden) renderList();
  });

  function renderList() {
    list.replaceChildren(
      ...[...found.values()].map((choice) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'button allowlist-wallet';
        if (choice.info.icon) {
          // EIP-6963: the icon only ever goes into an <img> (an SVG there runs no script).
          const icon = document.createElement('img');
          icon.src = choice.info.icon;
          icon.alt = '';
          icon.width = icon.height = 24;
          button.append(icon);
        }
        button.append(choice.info.name);
        button.addEventListener('click', () => void connectTo(choice));
        item.append(button);
        return item;
      }),
    );
  }

  function showNoWallet() {
    say(words.noWallet);
    const page = new URL(location.href);
    links.replaceChildren(
      ...mobileWallets.map((w) => {
        const a = document.createElement('a');
        a.className = 'button button-social';
        a.href = w.link(page);
        a.rel = 'noopener';
        a.textContent = words.openIn({ wallet: w.name });
        return a;
      }),
    );
    show(links, true);
  }

  /** Resolves when a wallet has announced, or after the grace period. */
  const announced = () =>
    new Promise<void>((resolve) => {
      const done = () => resolve();
      window.addEventListener('eip6963:announceProvider', done, { once: true });
      setTimeout(done, ANNOUNCE_GRACE_MS);
    });

  async function connect() {
    if (found.size === 0) {
      say(words.looking);
      await announced();
    }
    const choices = found.size > 0 ? [...found.values()] : [injectedWallet('Browser wallet')].filter((w) => w !== null);
    const [only] = choices;
    if (!only) return showNoWallet();
    if (choices.length === 1) return connectTo(only);
    say(words.choose);
    renderList();
    show(list, true);
  }

  async function onRightChain(provider: Eip1193Provider): Promise<boolean> {
    if ((await provider.request({ method: 'eth_chainId' })) === chainHex) return true;
    say(words.switching({ chainId: props.chainId }));
    switching = true;
    try {
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: chainHex }] });
    } finally {
      switching = false;
    }
    return (await provider.request({ method: 'eth_chainId' })) === chainHex;
  }

  function follow(provider: Eip1193Provider) {
    if (followed.has(provider) || !provider.on) return;
    followed.add(provider);
    provider.on('accountsChanged', (accounts) => {
      if (wallet?.provider !== provider) return;
      const next = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : null;
      if (next === null) return reset();
      address = next;
      void refresh().catch(fail);
    });
    provider.on('chainChanged', (chainId) => {
      if (wallet?.provider !== provider) return;
      if (chainId === chainHex) {
        if (!switching) void refresh().catch(fail);
        return;
      }
      // The button the sentence names stays in sight: pressing it asks the wallet to switch back
      // (sign and connectTo both ask first). Connect, if the status was never read.
      const button = action.hidden || !action.textContent ? connectButton : action;
      show(button, true);
      say(words.wrongChain({ chainId: props.chainId, button: button.textContent ?? '' }));
    });
  }

  function reset() {
    wallet = address = since = linkToken = null;
    show(action, false);
    show(emailForm, false);
    show(connectButton, true);
    say('');
  }

  async function connectTo(choice: FoundWallet) {
    busy(true);
    show(list, false);
    try {
      say(words.connecting({ wallet: choice.info.name }));
      const accounts = await choice.provider.request({ method: 'eth_requestAccounts' });
      const first = Array.isArray(accounts) ? accounts[0] : undefined;
      if (typeof first !== 'string') return say(words.walletError);
      wallet = choice;
      address = first;
      if (!(await onRightChain(choice.provider)))
        return say(words.wrongChain({ chainId: props.chainId, button: connectButton.textContent ?? '' }));
      // Followed from here on: the switch just asked for is not news.
      follow(choice.provider);
      show(connectButton, false);
      await refresh();
    } catch (error) {
      fail(error);
    } finally {
      busy(false);
    }
  }

  /** Reads the address's place on the list and offers the one thing to do next. */
  async function refresh() {
    if (!address) return;
    // Another account, or the list read again: the token was for the join just made, if any.
    linkToken = null;
    show(emailForm, false);
    say(words.checking);
    const reply = answer(await callRoute(routes.status, { params: { address } }));
    address = reply.address;
    since = reply.since;
    const short = shortAddress(reply.address);
    say(since ? words.joined({ address: short, since: sinceText(since) }) : words.notJoined({ address: short }));
    action.textContent = since ? words.leave : words.join;
    show(action, true);
  }

  async function sign() {
    if (!wallet || !address) return;
    const { provider } = wallet;
    const purpose = since ? 'leave' : 'join';
    busy(true);
    try {
      if (!(await onRightChain(provider)))
        return say(words.wrongChain({ chainId: props.chainId, button: action.textContent ?? '' }));
      const { message } = answer(await callRoute(routes.challenge, { body: { address, purpose } }));
      say(words.signing);
      const signature = await provider.request({ method: 'personal_sign', params: [utf8Hex(message), address] });
      if (typeof signature !== 'string') return say(words.walletError);
      const reply =
        purpose === 'join'
          ? answer(await callRoute(routes.join, { body: { message, signature } }))
          : { ...answer(await callRoute(routes.leave, { body: { message, signature } })), linkToken: null };
      since = reply.since;
      linkToken = reply.linkToken;
      show(emailForm, linkToken !== null);
      const short = shortAddress(reply.address);
      say(since ? words.joined({ address: short, since: sinceText(since) }) : words.left({ address: short }));
      action.textContent = since ? words.leave : words.join;
    } catch (error) {
      fail(error);
    } finally {
      busy(false);
    }
  }

  /** The optional email: the sign-up's double opt-in, proved by the join's token. */
  async function linkEmail(event: SubmitEvent) {
    event.preventDefault();
    if (!linkToken) return;
    const fields = new FormData(emailForm);
    // Hidden while it is sent, so a second press cannot spend the token twice.
    show(emailForm, false);
    busy(true);
    try {
      const reply = answer(
        await callRoute(routes.link, {
          body: {
            linkToken,
            name: String(fields.get('name') ?? ''),
            email: String(fields.get('email') ?? ''),
          },
        }),
      );
      // Spent, whatever the answer said: a new join gives a new one.
      linkToken = null;
      say(reply.message);
    } catch (error) {
      // Refused before it was spent (the address as typed, say): the form is back to correct it.
      show(emailForm, true);
      fail(error);
    } finally {
      busy(false);
    }
  }

  connectButton.addEventListener('click', () => void connect().catch(fail));
  emailForm.addEventListener('submit', (event) => void linkEmail(event));
  action.addEventListener('click', () => void sign());
}
