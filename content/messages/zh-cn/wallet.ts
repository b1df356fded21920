// The wallet button's words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// one it adds.
import type { WalletButtonWords } from '../../../src/shared/messages/wallet.ts';

export const walletWords: WalletButtonWords = {
  connect: '连接钱包',
  soon: '即将推出',
  soonDescription: '即将推出：钱包连接功能尚未开放。',
  soonAnnounced: '连接钱包功能即将推出。',
};
