// What the scripts say when the server cannot be reached or read, in Spanish: a draft, not yet
// reviewed by a native speaker (./meta.ts).
import type { ConnectionWords } from '../../../src/shared/messages/connection.ts';

export const connectionWords: ConnectionWords = {
  offline: 'No pudimos conectar con nuestro servidor. Revisa tu conexión y vuelve a intentarlo.',
  unreadable: 'Nuestro servidor envió una respuesta que no pudimos leer. Vuelve a intentarlo en un minuto.',
};
