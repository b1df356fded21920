// What the scripts say when the server cannot be reached or read, in Spanish: a draft, not yet
// reviewed by a native speaker (./meta.ts).
import type * as english from '../en/connection.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './connection.ts';

export const offline = 'No pudimos conectar con nuestro servidor. Revisa tu conexión y vuelve a intentarlo.';
export const unreadable = 'Nuestro servidor envió una respuesta que no pudimos leer. Vuelve a intentarlo en un minuto.';

export type Checked = SameWords<typeof english, typeof translated>;
