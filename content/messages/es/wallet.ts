// The wallet button's words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
import type { WalletButtonWords } from '../../../src/shared/messages/wallet.ts';

export const walletWords: WalletButtonWords = {
  connect: 'Conectar billetera',
  soon: 'Próximamente',
  soonDescription: 'Próximamente: la conexión de billeteras aún no está disponible.',
  soonAnnounced: 'Conectar billetera estará disponible pronto.',
};
