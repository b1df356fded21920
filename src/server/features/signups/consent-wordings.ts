import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales, type Locale } from '../../../shared/locales.ts';

// What a person agreed to is the sentence they read, in the language they read it: each locale's
// consent sentence (its signup.ts's `consent`) is its own version on record (consent_wordings), and
// a sign-up stores the version of its page's language. Both live in the locale's folder: the
// version is its meta.ts's `consentVersion`, changed whenever the sentence changes.

export interface ConsentWording {
  version: string;
  text: string;
}

export const consentWordingIn = (locale: Locale): ConsentWording => ({
  version: localeInfo[locale].consentVersion,
  text: messagesFor(locale).signup.consent,
});

export const allConsentWordings = (): ConsentWording[] => locales.map(consentWordingIn);
