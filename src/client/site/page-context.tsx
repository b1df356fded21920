import { createContext, useContext } from 'react';
import { messagesFor } from '../../../content/messages/catalog.ts';
import { defaultLocale, type Locale } from '../../shared/locales.ts';
import type { Messages } from '../../shared/messages/index.ts';
import { contentIn, type SiteContent } from '../../shared/content-schema.ts';
import { localePath } from '../../shared/locale-paths.ts';
import { content as siteContent } from './content.ts';

/** What every server-rendered section reads: the page's locale, its words and the content in it. */
export interface PageContextValue {
  locale: Locale;
  content: SiteContent;
  words: Messages;
  /** One of pagePaths as this locale's page (`/privacy` → `/es/privacy`). */
  href: (path: string) => string;
}

export const pageContextFor = (locale: Locale): PageContextValue => ({
  locale,
  content: contentIn(siteContent, locale),
  words: messagesFor(locale),
  href: (path) => localePath(locale, path),
});

// Only the server's render reads this (the islands get what they need as props), so the catalog
// and the content file never ship as JavaScript.
const PageContext = createContext<PageContextValue>(pageContextFor(defaultLocale));

export const PageContextProvider = PageContext.Provider;

export const usePage = (): PageContextValue => useContext(PageContext);
