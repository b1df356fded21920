import { defaultLocale, type Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import type { Keys } from '../../plugins/core.ts';

export const UNSUBSCRIBE_PURPOSE = 'unsubscribe';

// Unsubscribe links must keep working in every email ever sent, so they are a keyed signature of
// the subscriber id rather than a stored token: nothing to look up, nothing to leak from the
// database. The page is the subscriber's language's (`/es/unsubscribe`); the signature is the
// same at every locale's address, so a link keeps working whatever the language.
export const unsubscribeUrl = (
  publicUrl: string,
  keys: Keys,
  subscriberId: string,
  locale: Locale = defaultLocale,
): string =>
  `${publicUrl}${localePath(locale, pagePaths.unsubscribe)}?id=${encodeURIComponent(subscriberId)}&sig=${keys.sign(UNSUBSCRIBE_PURPOSE, subscriberId)}`;
