// The fixed words of the emails (content/messages/<locale>/confirmation-email.ts, wallet-link.ts,
// broadcast-email.ts). They carry nothing the person typed (decision 0011).

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}
interface Wallet {
  /** The wallet's short form: "0x1234…abcd". */
  wallet: string;
}
interface Sender {
  /** The site's name, "Diamond Hand". */
  name: string;
}

export interface ConfirmationEmailMessages {
  subject: (p: Site) => string;
  hello: string;
  thanks: (p: Site) => string;
  /** After `thanks` in the plain-text body, where there is no button. */
  openAndPress: string;
  button: string;
  pasteLink: string;
  validity: string;
  stop: (p: Sender) => string;
}

/** Linking a wallet on the allowlist to an email: the email, and the page its link opens. */
export interface WalletLinkMessages {
  email: {
    /** Names the wallet in its short form: a subject only tells emails apart; nothing is decided there. */
    subject: (p: Site & Wallet) => string;
    hello: string;
    /** Leads to the wallet's whole address, which follows on a line of its own (grouped, left to right). */
    asked: (p: Site) => string;
    /** After the address: check all of it, since a look-alike wallet can share its ends. */
    check: string;
    meaning: string;
    /** After `meaning` in the plain-text body, where there is no button. */
    openAndPress: string;
    button: string;
    pasteLink: string;
    validity: string;
    stop: (p: Sender) => string;
  };
  page: {
    /** The page shows the wallet's whole address below the message (grouped, left to right). */
    pending: { title: string; message: string; button: string };
    linked: { title: string; message: string };
    expired: { title: string; message: string };
    usedLink: { title: string; message: string };
  };
}

/** A broadcast email's footer: why the reader gets it, and the unsubscribe link. */
export interface BroadcastEmailMessages {
  why: (p: Site) => string;
  stop: (p: Site) => string;
}
