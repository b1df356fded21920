import { messagesFor } from '../../../../content/messages/catalog.ts';
import type { Locale } from '../../../shared/locales.ts';
import { contentIn, type SiteContent } from '../../../shared/content-schema.ts';
import type { MailMessage } from '../mail/index.ts';
import { buttonEmail } from './button-email.ts';

/**
 * The confirmation email goes to an address nobody has confirmed yet, so it carries nothing the
 * sender typed: not the name, not the comment. Otherwise anyone could have us mail a stranger a
 * message of their own ("Hi Bob, your account is locked…"). See docs/decisions/0011.
 */
export function confirmationEmail(opts: {
  content: SiteContent;
  /** What the email is written in (content/messages/<locale>/confirmation-email.ts). */
  locale: Locale;
  to: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const { locale } = opts;
  // The content file's words (the risk notice) in the same language as the email's own.
  const content = contentIn(opts.content, locale);
  const words = messagesFor(locale).confirmationEmail;
  const site = `${content.name} (${content.ticker})`;
  return buttonEmail({
    locale,
    to: opts.to,
    subject: words.subject({ site }),
    site,
    hello: words.hello,
    paragraphs: [words.thanks({ site })],
    openAndPress: words.openAndPress,
    button: words.button,
    url: opts.confirmUrl,
    pasteLink: words.pasteLink,
    validity: words.validity,
    riskNotice: content.riskNotice,
    stop: words.stop({ name: content.name }),
    unsubscribeUrl: opts.unsubscribeUrl,
  });
}
