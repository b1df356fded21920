import { defaultLocale, type Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import type { ReferralsMessages } from '../../../shared/messages/referrals.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { inviteQueryName, type InviteView } from '../../../shared/referrals.ts';
import type { Keys } from '../../plugins/core.ts';

/** The signature's purpose: an invite page link is no unsubscribe link, and the other way round. */
export const INVITE_PAGE_PURPOSE = 'invite-page';

/** A friend's way in: the home page in the referrer's language, with the code. */
export const inviteUrl = (publicUrl: string, code: string, locale: Locale = defaultLocale): string =>
  `${publicUrl}${localePath(locale, pagePaths.home)}?${inviteQueryName}=${encodeURIComponent(code)}`;

/** The query of a person's invite page: their id and its keyed signature (as unsubscribe links). */
export const invitePageQuery = (keys: Keys, subscriberId: string): string =>
  new URLSearchParams({ id: subscriberId, sig: keys.sign(INVITE_PAGE_PURPOSE, subscriberId) }).toString();

/**
 * A person's own invite page, by a signed link that keeps working in every email ever sent (a
 * keyed signature of the id, as the unsubscribe link; nothing stored to leak). Erased, the id
 * names no one and the page says the link does not work.
 */
export const invitePageUrl = (publicUrl: string, keys: Keys, subscriberId: string, locale: Locale = defaultLocale) =>
  `${publicUrl}${localePath(locale, pagePaths.invite)}?${invitePageQuery(keys, subscriberId)}`;

/** Plain share links: the networks' own share addresses and mailto:, no script of theirs. */
export function shareLinks(url: string, words: ReferralsMessages): InviteView['share'] {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString().replace(/\+/g, '%20');
  return {
    x: `https://twitter.com/intent/tweet?${q({ text: words.shareText, url })}`,
    telegram: `https://t.me/share/url?${q({ url, text: words.shareText })}`,
    email: `mailto:?${q({ subject: words.shareSubject, body: `${words.shareText} ${url}` })}`,
  };
}
