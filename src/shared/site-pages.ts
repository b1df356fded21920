// The public routes and the shape the server hands to the client for hydration. Shared so the
// server's render and the browser's hydrate agree on the exact same props.
import type { Locale } from './locales.ts';
import type { WalletMode } from './content-schema.ts';
import type { InviteView } from './referrals.ts';
import type { SignupView } from './signup-schema.ts';

export type SitePageName = 'home' | 'privacy' | 'terms' | 'not-found' | 'notice';

/** The presale countdown, when the content file sets a date: what the banner needs to render it. */
export interface PresaleProps {
  /** ISO date-time with its UTC offset, as written in the content file. */
  opensAt: string;
  /** Where the banner links once the presale is open (https). */
  url: string;
  /** When the server rendered this page (ms since the epoch): the countdown it shows is from then. */
  renderedAt: number;
}

/** The wallet once the content file has moved past "Coming Soon": the allowlist, open or closed. */
export interface WalletProps {
  mode: Exclude<WalletMode, 'coming-soon'>;
  /** The network the allowlist's message names (the wallet is asked to switch to it). */
  chainId: number;
}

/**
 * The presale terms' version and who may not join, as the server was given them (the content
 * file's presaleTerms): the terms page and the allowlist's notice read them. The same for everyone.
 */
export interface TermsProps {
  version: string;
  restrictedCountries: readonly string[];
}

export interface SitePageProps {
  page: SitePageName;
  /** The year printed in the footer, from the server's clock. */
  year: number;
  /** What the page is written in: its words are messagesFor(locale)'s (content/messages/catalog.ts). */
  locale: Locale;
  /** Set on the home page when the content file has a presale date; unset means "Coming Soon". */
  presale?: PresaleProps;
  /** Unset while the content file's wallet is 'coming-soon' (the button flips, as it always has). */
  wallet?: WalletProps;
  /** The home page after a sign-up posted without JavaScript. */
  signup?: SignupView;
  /** The home page reached through a friend's invite link: the code the form carries (well-formed). */
  invite?: string;
  /** Set on every page the server renders. */
  terms?: TermsProps;
  /** The 'notice' page: what a confirm or unsubscribe link is about, or what pressing it did. */
  notice?: Notice;
}

export interface Notice {
  title: string;
  message: string;
  /**
   * A wallet's whole address, grouped for reading ("0x1234 5678 …"), shown after the message on a
   * line of its own, left to right in every language, where a person decides about that wallet.
   */
  wallet?: string;
  /** The one thing to do here: a button that POSTs a plain form (opening the page does nothing). */
  action?: NoticeAction;
  /** A confirmed person's invite link, share links and count (the confirmed page, the invite page). */
  invite?: InviteView;
}

interface NoticeAction {
  /** What the button says, e.g. "Confirm my sign-up". */
  label: string;
  /** Where the form posts: one of our own paths (src/shared/paths.ts), with its query if any. */
  href: string;
  /** Hidden fields sent with the press. */
  fields?: Record<string, string>;
}
