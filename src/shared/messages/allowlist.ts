// The allowlist's words (content/messages/<locale>/allowlist.ts). Three objects, so each script
// carries only what it says: the page's block (rendered on the server only), the island's words (in
// the allowlist island's chunk), and the server's refusals and the statement it writes into the
// message to sign. docs/decisions/0045-wallet-allowlist.md
import type { RichText } from './rich-text.ts';

/** What the server renders on the page in allowlist or closed mode (never in a script). */
export interface WalletPageWords {
  headerJoin: string;
  headerClosed: string;
  heading: string;
  intro: string;
  closed: string;
  connect: string;
  never: string;
  needs: string;
  emailOffer: string;
  emailSubmit: string;
  /**
   * The one line under the intro: who may not join (`countries`: the restricted countries as one
   * phrase of this language, or null when none is), and a link to the terms (`terms`: its address).
   * The message a wallet signs is in English (EIP-4361 allows only ASCII in it): the line says so.
   */
  whoMayJoin: (p: { countries: string | null; terms: string }) => RichText;
}

/** The island's words: what the visitor reads while connecting, signing, joined or left. */
export interface WalletMessages {
  connect: string;
  looking: string;
  choose: string;
  noWallet: string;
  openIn: (p: { wallet: string }) => string;
  connecting: (p: { wallet: string }) => string;
  switching: (p: { chainId: number }) => string;
  wrongChain: (p: { chainId: number; button: string }) => string;
  checking: string;
  join: string;
  leave: string;
  signing: string;
  joined: (p: { address: string; since: string }) => string;
  notJoined: (p: { address: string }) => string;
  left: (p: { address: string }) => string;
  declined: string;
  walletError: string;
  accountChanged: (p: { address: string }) => string;
}

/** The server's words: the statement inside the signed message, and every refusal. */
export interface WalletRefusals {
  /**
   * EIP-4361 allows only ASCII in a statement, and the server checks the signed one: English's.
   * Joining declares the terms' version accepted and, when there are any, the restricted countries
   * the signer does not live in (`countries`: their ASCII names and codes as one phrase, or null).
   */
  statement: { join: (p: { version: string; countries: string | null }) => string; leave: string };

  /**
   * A join the server's own lookup places in a restricted country: why, what the visitor can do,
   * and that the lookup can be wrong (`country`: its name in this language).
   */
  restrictedCountry: (p: { country: string }) => string;
  notOpen: string;
  closed: string;
  malformed: string;
  wrongDomain: (p: { domain: string }) => string;
  wrongUri: (p: { uri: string }) => string;
  wrongChain: (p: { chainId: number }) => string;
  wrongStatement: string;
  unknownNonce: string;
  usedNonce: string;
  expired: string;
  otherAddress: string;
  otherSigner: (p: { address: string }) => string;
  unreadableSignature: string;
  highS: string;
  contractWalletUnchecked: (p: { address: string }) => string;
  contractWalletDown: string;
  tooMany: (p: { seconds: number }) => string;
  tooFast: string;
  notOnList: (p: { address: string }) => string;
  noSnapshot: string;
  linkUnproved: string;
  linkAsked: string;
}

export interface AllowlistMessages {
  walletPageWords: WalletPageWords;
  walletMessages: WalletMessages;
  walletRefusals: WalletRefusals;
}
