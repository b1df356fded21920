// The wallet button's words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// one it adds.
import type { WalletButtonWords } from '../../../src/shared/messages/wallet.ts';

export const walletWords: WalletButtonWords = {
  connect: 'Conectar carteira',
  soon: 'Em breve',
  soonDescription: 'Em breve: a conexão de carteira ainda não está disponível.',
  soonAnnounced: 'Conectar carteira estará disponível em breve.',
};
