import { messagesFor } from '../../../content/messages/catalog.ts';
import { localeInfo, type Locale } from '../../../content/messages/locales.ts';
import { contentIn, type SiteContent } from '../../shared/content-schema.ts';
import { listUnsubscribeHeaders, type MailMessage } from '../mail/outbox.ts';
import { escapeHtml } from '../lib/escape-html.ts';

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
  const { locale, to, confirmUrl, unsubscribeUrl } = opts;
  // The content file's words (the risk notice) in the same language as the email's own.
  const content = contentIn(opts.content, locale);
  const { tag, dir } = localeInfo[locale];
  const words = messagesFor(locale).confirmationEmail;
  const site = `${content.name} (${content.ticker})`;
  const subject = words.subject({ site });
  const stop = words.stop({ name: content.name });
  const text = [
    words.hello,
    '',
    `${words.thanks({ site })} ${words.openAndPress}`,
    '',
    confirmUrl,
    '',
    words.validity,
    '',
    content.riskNotice,
    '',
    `${stop}: ${unsubscribeUrl}`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html lang="${tag}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(
    subject,
  )}</title></head><body dir="${dir}" style="margin:0;padding:24px;background:#c9ecff;font-family:Arial,Helvetica,sans-serif;color:#0b1d4d">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border:3px solid #0b1d4d;border-radius:16px">
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:24px">${e(site)}</h1>
<p style="font-size:16px;line-height:1.5">${e(words.hello)}</p>
<p style="font-size:16px;line-height:1.5">${e(words.thanks({ site }))}</p>
<p style="margin:24px 0"><a href="${e(confirmUrl)}" style="display:inline-block;padding:14px 26px;background:#0b1d4d;color:#ffffff;border-radius:999px;font-weight:bold;text-decoration:none">${e(words.button)}</a></p>
<p style="font-size:14px;line-height:1.5">${e(words.pasteLink)}<br><a href="${e(confirmUrl)}" style="color:#0b1d4d;word-break:break-all">${e(confirmUrl)}</a></p>
<p style="font-size:14px;line-height:1.5">${e(words.validity)}</p>
<p style="font-size:12px;line-height:1.5;color:#24407f">${e(content.riskNotice)}<br><a href="${e(unsubscribeUrl)}" style="color:#24407f">${e(stop)}</a></p>
</td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html, headers: listUnsubscribeHeaders(unsubscribeUrl) };
}
