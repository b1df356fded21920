// What the page's and the console's scripts say when the server cannot be reached or answers
// something they cannot read: words the browser writes itself, since no answer carried any. One
// object like every surface (its two keys cost a script a few bytes).
// docs/decisions/0043-messages-as-codes.md
import type { ConnectionWords } from '../../../src/shared/messages/connection.ts';

export const connectionWords: ConnectionWords = {
  offline: 'We could not reach our server. Check your connection and try again.',
  unreadable: 'Our server sent an answer we could not read. Please try again in a minute.',
};
