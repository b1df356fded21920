// The wallet button's words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Named constants as in English; Checked refuses a name English has and this lacks, or one it adds.
import type * as english from '../en/wallet.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './wallet.ts';

export const connect = 'Conectar billetera';
export const soon = 'Próximamente';
export const soonDescription = 'Próximamente: la conexión de billeteras aún no está disponible.';
export const soonAnnounced = 'Conectar billetera estará disponible pronto.';

export type Checked = SameWords<typeof english, typeof translated>;
