// Whether a native speaker has signed off each locale's words (issue 19): translations written
// here are drafts until one has. Each locale's folder says so in its meta.ts; the console will list
// unreviewedLocales() for the operators. docs/decisions/0044-locales-and-draft-translations.md
import { meta as ar } from './ar/meta.ts';
import { meta as en } from './en/meta.ts';
import { meta as es } from './es/meta.ts';
import { locales, type Locale } from './locales.ts';
import type { TranslationReview } from './translation-review.ts';
import { meta as ptBr } from './pt-br/meta.ts';
import { meta as zhCn } from './zh-cn/meta.ts';

export const translationReviews: Record<Locale, TranslationReview> = {
  en: en,
  es: es,
  'pt-br': ptBr,
  'zh-cn': zhCn,
  ar: ar,
};

/** The locales whose words are still drafts, in the order of `locales`. */
export const unreviewedLocales = (): Locale[] => locales.filter((locale) => !translationReviews[locale].reviewed);
