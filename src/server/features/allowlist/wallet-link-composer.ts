import { messagesFor } from '../../../../content/messages/catalog.ts';
import { defaultLocale, isLocale, type Locale } from '../../../shared/locales.ts';
import { contentIn, type SiteContent } from '../../../shared/content-schema.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import type { Composer, MailMessage } from '../mail/index.ts';
import { buttonEmail, issueLinkToken, type LinkComposerOptions, unsubscribeUrl } from '../signups/index.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { groupedAddress, shortAddress } from './short-address.ts';
import { requestForMail, WALLET_LINK_VALID_MS, walletLinkTokens } from './wallet-link-store.ts';

/**
 * Builds the email asking a person to confirm one wallet's link, at send time, as the confirmation
 * email is built (signups/confirmation-composer.ts): the token is made here and only its digest is
 * stored, on the request, through the mail's group committer, before the email exists. The email
 * names the wallet whole, grouped for reading (the short form only in the subject, where nothing
 * is decided: a look-alike wallet can share its ends), and says what linking means; it carries
 * nothing anyone typed.
 */
export function walletLinkComposer(opts: LinkComposerOptions): Composer {
  return async (row, now) => {
    const request = await requestForMail(opts.db, row.id);
    // Replaced by the wallet's next request, confirmed, expired, the wallet gone, the person
    // erased, or unsubscribed since: nothing to send.
    if (!request || request.status === 'unsubscribed') return 'cancel';
    const token = await issueLinkToken(opts, walletLinkTokens, row.id, new Date(now.getTime() + WALLET_LINK_VALID_MS));
    const locale = isLocale(request.locale) ? request.locale : defaultLocale;
    return walletLinkEmail({
      locale,
      content: opts.content,
      to: request.email,
      address: request.address,
      url: `${opts.publicUrl}${localePath(locale, pagePaths.walletLink)}?token=${token}`,
      unsubscribeUrl: unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id, locale),
    });
  };
}

/**
 * The email itself, in `locale`: the wallet whole (checksummed, grouped, on a line of its own, left
 * to right in every language) where the person decides; its short form only in the subject,
 * isolated left to right inside right-to-left words.
 */
export function walletLinkEmail(opts: {
  locale: Locale;
  content: SiteContent;
  to: string;
  address: string;
  url: string;
  unsubscribeUrl: string;
}): MailMessage {
  const { locale } = opts;
  const content = contentIn(opts.content, locale);
  const words = messagesFor(locale).walletLink.email;
  const site = `${content.name} (${content.ticker})`;
  const short = shortAddress(opts.address);
  const wallet = localeInfo[locale].dir === 'rtl' ? `\u2066${short}\u2069` : short;
  return buttonEmail({
    locale,
    to: opts.to,
    subject: words.subject({ site, wallet }),
    site,
    hello: words.hello,
    paragraphs: [words.asked({ site }), { code: groupedAddress(opts.address) }, words.check, words.meaning],
    openAndPress: words.openAndPress,
    button: words.button,
    url: opts.url,
    pasteLink: words.pasteLink,
    validity: words.validity,
    riskNotice: content.riskNotice,
    stop: words.stop({ name: content.name }),
    unsubscribeUrl: opts.unsubscribeUrl,
  });
}
