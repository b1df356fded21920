import { messagesFor } from '../../../../content/messages/catalog.ts';
import { defaultLocale, isLocale } from '../../../shared/locales.ts';
import { contentIn } from '../../../shared/content-schema.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import type { Composer } from '../mail/index.ts';
import { buttonEmail, issueLinkToken, type LinkComposerOptions, unsubscribeUrl } from '../signups/index.ts';
import { shortAddress } from './short-address.ts';
import { requestForMail, WALLET_LINK_VALID_MS, walletLinkTokens } from './wallet-link-store.ts';

/**
 * Builds the email asking a person to confirm one wallet's link, at send time, as the confirmation
 * email is built (signups/confirmation-composer.ts): the token is made here and only its digest is
 * stored, on the request, through the mail's group committer, before the email exists. The email
 * names the wallet (short form) and says what linking means; it carries nothing anyone typed.
 */
export function walletLinkComposer(opts: LinkComposerOptions): Composer {
  return async (row, now) => {
    const request = await requestForMail(opts.db, row.id);
    // Replaced by the wallet's next request, confirmed, expired, the wallet gone, the person
    // erased, or unsubscribed since: nothing to send.
    if (!request || request.status === 'unsubscribed') return 'cancel';
    const token = await issueLinkToken(opts, walletLinkTokens, row.id, new Date(now.getTime() + WALLET_LINK_VALID_MS));
    const locale = isLocale(request.locale) ? request.locale : defaultLocale;
    const content = contentIn(opts.content, locale);
    const words = messagesFor(locale).walletLink.email;
    const site = `${content.name} (${content.ticker})`;
    const wallet = shortAddress(request.address);
    return buttonEmail({
      locale,
      to: request.email,
      subject: words.subject({ site, wallet }),
      site,
      hello: words.hello,
      paragraphs: [words.asked({ site, wallet }), words.meaning],
      openAndPress: words.openAndPress,
      button: words.button,
      url: `${opts.publicUrl}${localePath(locale, pagePaths.walletLink)}?token=${token}`,
      pasteLink: words.pasteLink,
      validity: words.validity,
      riskNotice: content.riskNotice,
      stop: words.stop({ name: content.name }),
      unsubscribeUrl: unsubscribeUrl(opts.publicUrl, opts.keys, row.subscriber_id, locale),
    });
  };
}
