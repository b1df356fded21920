// Every surface's words by locale, for the server (which renders pages, answers and emails in the
// locale it is given). The English files set the types: a locale added below must give every
// surface with the same keys and the same parameters, or this file does not compile.
// The browser never imports this file: an island imports its own surface's file (`./en/signup.ts`),
// so its script carries one locale's words for one surface (decision 0043).
// docs/decisions/0043-messages-as-codes.md
import { messages as ar } from './ar/index.ts';
import { messages as en } from './en/index.ts';
import { messages as es } from './es/index.ts';
import type { Locale } from './locales.ts';
import { messages as ptBr } from './pt-br/index.ts';
import { messages as zhCn } from './zh-cn/index.ts';
import type { Messages } from './messages.ts';

export const catalog: Record<Locale, Messages> = { en, es, 'pt-br': ptBr, 'zh-cn': zhCn, ar };

/** The words of `locale`, by surface: `messagesFor(locale).linkPages.expired`. */
export const messagesFor = (locale: Locale): Messages => catalog[locale];
