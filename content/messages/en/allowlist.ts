// The allowlist's words, in English (the pattern of signup.ts: plain strings, or plain functions of
// named parameters). Three exports, so each script carries only what it says: the page's block
// (rendered on the server only), the island's words (in the allowlist island's chunk), and the
// server's refusals and the statement it writes into the message to sign.
// docs/decisions/0045-wallet-allowlist.md
import type { RichText } from '../../../src/shared/messages/rich-text.ts';
import type { WalletMessages, WalletPageWords, WalletRefusals } from '../../../src/shared/messages/allowlist.ts';

/** What the server renders on the page in allowlist or closed mode (never in a script). */
export const walletPageWords: WalletPageWords = {
  headerJoin: 'Join the Allowlist',
  headerClosed: 'Allowlist Closed',
  heading: 'Presale Allowlist',
  intro:
    'Prove you own a wallet by signing a short message, and your address goes on the list for the presale. It is free.',
  closed: 'The allowlist is closed for now. Follow our channels to hear when the next round opens.',
  connect: 'Connect Wallet',
  never:
    'This page only ever asks your wallet to sign a Sign-In with Ethereum message. It never asks for a transaction, a token approval or a permit, and it cannot move your funds.',
  needs: 'Joining needs JavaScript and a wallet: a browser extension, or the browser inside your wallet app.',
  emailOffer:
    'Get told when the presale opens (optional): we send a confirmation link first, and your email counts once you press it.',
  emailSubmit: 'Get told when the presale opens',
  whoMayJoin: ({ countries, terms }: { countries: string | null; terms: string }): RichText => [
    countries === null ? '' : `Residents of ${countries} may not join. `,
    'Joining accepts the ',
    { link: 'presale terms', href: terms },
    countries === null
      ? ', in the message you sign (in English, as the Sign-In with Ethereum standard requires).'
      : ', and the message you sign declares that you are not a resident of these countries (in English, as the Sign-In with Ethereum standard requires).',
  ],
};

/** The island's words: what the visitor reads while connecting, signing, joined or left. */
export const walletMessages: WalletMessages = {
  connect: 'Connect Wallet',
  looking: 'Looking for wallets in this browser…',
  choose: 'Choose your wallet:',
  noWallet:
    'No wallet was found in this browser. Install a wallet extension, or open this page in the browser inside your wallet app:',
  openIn: ({ wallet }: { wallet: string }): string => `Open in ${wallet}`,
  connecting: ({ wallet }: { wallet: string }): string => `Asking ${wallet} for your address…`,
  switching: ({ chainId }: { chainId: number }): string =>
    `Asking your wallet to switch to the presale's network (chain ${chainId})…`,
  wrongChain: ({ chainId, button }: { chainId: number; button: string }): string =>
    `Your wallet is on another network. Press “${button}” to switch it to chain ${chainId} (or switch it in your wallet).`,
  checking: 'Checking the allowlist…',
  join: 'Sign to Join the Allowlist',
  leave: 'Sign to Leave the Allowlist',
  signing: 'Please sign the message in your wallet. It is free and moves nothing.',
  joined: ({ address, since }: { address: string; since: string }): string =>
    `${address} is on the allowlist since ${since}.`,
  notJoined: ({ address }: { address: string }): string => `${address} is not on the allowlist yet.`,
  left: ({ address }: { address: string }): string => `${address} has left the allowlist.`,
  declined: 'You declined in your wallet. Nothing was signed and nothing changed.',
  walletError: 'Your wallet did not answer as expected. Please try again.',
  accountChanged: ({ address }: { address: string }): string =>
    `Your wallet now uses ${address}. Press the button to go on with that address.`,
};

/** The server's words: the statement inside the signed message, and every refusal. */
export const walletRefusals: WalletRefusals = {
  statement: {
    join: ({ version, countries }: { version: string; countries: string | null }): string =>
      `Join the Diamond Hand presale allowlist. I accept the presale terms, version ${version}${countries === null ? '' : `, and I am not a resident of ${countries}`}. This costs nothing, sends no transaction and grants no permission to move your funds.`,
    leave:
      'Leave the Diamond Hand presale allowlist. This costs nothing, sends no transaction and grants no permission to move your funds.',
  },
  restrictedCountry: ({ country }: { country: string }): string =>
    `Our server places your connection in ${country}, whose residents may not join this allowlist (see the presale terms). If you live in ${country}, you cannot join. If you are not in ${country}, the lookup is wrong: it guesses from your network's address, and can be wrong when you travel or your provider routes your traffic through another country. Please try again from another connection. Nothing about you or your wallet was kept.`,
  notOpen: 'The allowlist is not open.',
  closed: 'The allowlist is closed: no one can join it now.',
  malformed: 'That is not a Sign-In with Ethereum message we can read. Please press the button again for a fresh one.',
  wrongDomain: ({ domain }: { domain: string }): string =>
    `That message is for another website. This site only accepts messages for ${domain}.`,
  wrongUri: ({ uri }: { uri: string }): string => `That message names another address than ${uri}.`,
  wrongChain: ({ chainId }: { chainId: number }): string =>
    `That message is for another network. The presale's network is chain ${chainId}.`,
  wrongStatement: 'That message does not say what this site asked you to sign. Please press the button again.',
  unknownNonce: 'That message was not written by this site. Please press the button again for a fresh one.',
  usedNonce: 'That message has already been used. Each one counts once: please press the button again.',
  expired: 'That message has expired (each one is valid for 10 minutes). Please press the button again.',
  otherAddress: 'That message was written for another address than the one it names.',
  otherSigner: ({ address }: { address: string }): string =>
    `The signature was not made by ${address}. Please sign with the wallet that holds this address.`,
  unreadableSignature: 'That signature could not be read. Please sign again.',
  highS:
    'That signature is in a form no wallet makes (its “s” value is in the upper half, which Ethereum has refused since EIP-2), though the same key can make it. Please sign again with your wallet.',
  contractWalletUnchecked: ({ address }: { address: string }): string =>
    `If ${address} is a smart-contract wallet, this site cannot check its signature yet: that needs a connection to an Ethereum node (ETH_RPC_URL), which is not set up. Please use an ordinary wallet address.`,
  contractWalletDown:
    'We could not reach the Ethereum node to check a smart-contract wallet. Please try again in a minute.',
  tooMany: ({ seconds }: { seconds: number }): string =>
    `Too many tries from your network. Please try again in ${seconds} seconds.`,
  tooFast: 'That was quicker than a person could be. Please wait a few seconds and press the button again.',
  notOnList: ({ address }: { address: string }): string => `${address} is not on the allowlist's latest snapshot.`,
  noSnapshot: 'No allowlist snapshot has been frozen yet.',
  linkUnproved:
    'We cannot tell that this request comes from the wallet that joined: linking an email needs a fresh signature. Please sign to join again (your place on the list is kept), then add your email.',
  linkAsked:
    'Thank you. If this address can receive our emails, we are sending it an email that names this wallet: the wallet is linked only once the button on the page it leads to is pressed. If the address has not confirmed its sign-up yet, a confirmation link comes too.',
};
