// The wallet button's words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Named constants as in English; Checked refuses a name English has and this lacks, or
// one it adds.
import type * as english from '../en/wallet.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './wallet.ts';

export const connect = 'Conectar carteira';
export const soon = 'Em breve';
export const soonDescription = 'Em breve: a conexão de carteira ainda não está disponível.';
export const soonAnnounced = 'Conectar carteira estará disponível em breve.';

export type Checked = SameWords<typeof english, typeof translated>;
