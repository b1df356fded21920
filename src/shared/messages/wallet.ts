// The wallet button's words (content/messages/<locale>/wallet.ts): they ride in the wallet island's
// props, so no chunk carries them.

export interface WalletButtonWords {
  connect: string;
  soon: string;
  /** Said instead of the flipped face, which is hidden from screen readers. */
  soonDescription: string;
  soonAnnounced: string;
}
