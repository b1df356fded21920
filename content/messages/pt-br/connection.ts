// What the scripts say when the server cannot be reached or read, in Brazilian Portuguese: a draft,
// not yet reviewed by a native speaker (./meta.ts).
import type { ConnectionWords } from '../../../src/shared/messages/connection.ts';

export const connectionWords: ConnectionWords = {
  offline: 'Não conseguimos falar com o nosso servidor. Verifique sua conexão e tente novamente.',
  unreadable: 'Nosso servidor enviou uma resposta que não conseguimos ler. Tente novamente em um minuto.',
};
