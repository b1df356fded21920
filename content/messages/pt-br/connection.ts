// What the scripts say when the server cannot be reached or read, in Brazilian Portuguese: a draft,
// not yet reviewed by a native speaker (./meta.ts).
import type * as english from '../en/connection.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './connection.ts';

export const offline = 'Não conseguimos falar com o nosso servidor. Verifique sua conexão e tente novamente.';
export const unreadable = 'Nosso servidor enviou uma resposta que não conseguimos ler. Tente novamente em um minuto.';

export type Checked = SameWords<typeof english, typeof translated>;
