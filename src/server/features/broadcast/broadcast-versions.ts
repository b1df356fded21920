import {
  type BroadcastDraft,
  translatedLocales,
  versionFor,
  versionLocales,
} from '../../../shared/admin/broadcast-schema.ts';
import { localeEnglishNames, namesOf } from '../../../shared/admin/locale-names.ts';
import { broadcastRefusal, type BroadcastPolicy } from './broadcast-guard.ts';

// What may go out of a broadcast written in several locales (decision 0048): the address guard
// (decision 0027) on every version, not only English's, and a version for every locale unless
// English is the fallback, so no subscriber is left without one.

/** Why these versions may not go out (every version's reasons, each named), or null. */
export function versionsRefusal(draft: BroadcastDraft, policy: BroadcastPolicy): string | null {
  const own = versionLocales(draft);
  const refusals = own.flatMap((locale) => {
    const version = versionFor(draft, locale)?.version;
    const refusal = version ? broadcastRefusal(version, policy) : null;
    if (!refusal) return [];
    // An English-only broadcast says it as it always did.
    return [own.length === 1 ? refusal : `The ${localeEnglishNames[locale]} version: ${refusal}`];
  });
  const missing = translatedLocales.filter((l) => !draft.translations[l]);
  if (!draft.englishFallback && missing.length > 0) {
    refusals.push(
      `There is no ${namesOf(missing)} version, and English is not set to go to the locales without one: write ${
        missing.length === 1 ? 'it' : 'them'
      }, or let English go to the rest.`,
    );
  }
  return refusals.length === 0 ? null : refusals.join('\n\n');
}
