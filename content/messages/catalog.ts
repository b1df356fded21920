// Every locale's words, read from its folder by the registry (src/shared/locales.ts): adding a
// locale is its line there and its folder here, nothing else. Each folder's files are typed by
// src/shared/messages, so an incomplete folder does not compile; a registry line without its
// folder stops every import of this file, naming the locale (and folders.test.ts names it too).
// The browser never imports this file: an island imports its own surface's file (`./en/signup.ts`),
// so its script carries one locale's words for one surface (decision 0043).
// docs/decisions/0043-messages-as-codes.md
import { locales, type Locale } from '../../src/shared/locales.ts';
import { readFolders } from '../../src/shared/messages/folders.ts';
import type { Messages } from '../../src/shared/messages/index.ts';

/** Every surface's words by locale, for the server (which renders in the locale it is given). */
export const catalog: Record<Locale, Messages> = await readFolders(
  locales,
  (locale) => import(`./${locale}/index.ts`),
  'messages',
  'index.ts',
);

/** The words of `locale`, by surface: `messagesFor(locale).linkPages.expired`. */
export const messagesFor = (locale: Locale): Messages => catalog[locale];
