import { connectionWords as english } from '../../../content/messages/en/connection.ts';
import type { ConnectionWords } from '../../shared/messages/connection.ts';

// What the browser says when no answer carried words (the server was out of reach, or its answer
// unreadable): English, the console's language, until a page's island hands over its locale's
// file, which loads beside the island's code (src/client/site/entry-client.ts). A page is one
// language, so one setting serves every call it makes.

let current: ConnectionWords = english;

export const connectionWords = (): ConnectionWords => current;

export function setConnectionWords(words: ConnectionWords): void {
  current = words;
}
