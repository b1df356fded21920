// The wallet button's words in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
import type { WalletButtonWords } from '../../../src/shared/messages/wallet.ts';

export const walletWords: WalletButtonWords = {
  connect: 'ربط المحفظة',
  soon: 'قريبًا',
  soonDescription: 'قريبًا: ربط المحفظة غير متاح بعد.',
  soonAnnounced: 'ربط المحفظة سيتوفّر قريبًا.',
};
