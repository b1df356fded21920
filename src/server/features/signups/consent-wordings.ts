import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales, type Locale } from '../../../../content/messages/locales.ts';
import { consentWording } from '../../../shared/signup-schema.ts';

// What a person agreed to is the sentence they read, in the language they read it: each locale's
// consent sentence is its own version on record (consent_wordings), and a sign-up stores the
// version of its page's language. When a locale's sentence changes, its version here changes too
// (English's is consentWording's, beside the form's schema).

const versions: Record<Locale, string> = {
  en: consentWording.version,
  es: '2026-11-26.es',
  'pt-br': '2026-11-26.pt-br',
  'zh-cn': '2026-11-26.zh-cn',
  ar: '2026-11-26.ar',
};

export interface ConsentWording {
  version: string;
  text: string;
}

export const consentWordingIn = (locale: Locale): ConsentWording => ({
  version: versions[locale],
  text: locale === 'en' ? consentWording.text : messagesFor(locale).signup.consent,
});

export const allConsentWordings = (): ConsentWording[] => locales.map(consentWordingIn);
