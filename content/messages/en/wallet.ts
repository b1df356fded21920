// The wallet button's words, in English: they ride in the wallet island's props, so no chunk
// carries them.
// docs/decisions/0043-messages-as-codes.md
import type { WalletButtonWords } from '../../../src/shared/messages/wallet.ts';

export const walletWords: WalletButtonWords = {
  connect: 'Connect Wallet',
  soon: 'Coming Soon',
  // Said instead of the flipped face, which is hidden from screen readers.
  soonDescription: 'Coming soon: wallet connect is not open yet.',
  soonAnnounced: 'Connect Wallet is coming soon.',
};
