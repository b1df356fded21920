import { localeInfo } from '../../../../content/messages/locale-info.ts';
import type { Locale } from '../../../shared/locales.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { listUnsubscribeHeaders, type MailMessage } from '../mail/index.ts';

/**
 * The one layout of our emails that ask a person to press something: a heading, a greeting, a few
 * paragraphs, a button to a page of ours (and the same link to paste), how long it works, the
 * risk notice and the way to stop all emails, in a plain-text and an HTML body. The confirmation
 * email and the wallet-link email (allowlist) fill it with their own words; the button opens a
 * page that acts only on a press (docs/decisions/0011).
 */
export function buttonEmail(opts: {
  locale: Locale;
  to: string;
  subject: string;
  /** "Diamond Hand (DH)" */
  site: string;
  hello: string;
  /**
   * Before the button, each a paragraph; in the plain text the last is followed by `openAndPress`.
   * `{ code }` is a line of its own to be read character by character (a wallet's address): left to
   * right in every language, in a monospace face in the HTML.
   */
  paragraphs: readonly (string | { code: string })[];
  openAndPress: string;
  button: string;
  url: string;
  pasteLink: string;
  validity: string;
  riskNotice: string;
  stop: string;
  unsubscribeUrl: string;
}): MailMessage {
  const { tag, dir } = localeInfo[opts.locale];
  const { subject, site, url, unsubscribeUrl } = opts;
  // A code in right-to-left text is isolated left to right (U+2066 … U+2069): its own line's
  // direction would otherwise come from the paragraph around it in some readers.
  const asText = (p: string | { code: string }) =>
    typeof p === 'string' ? p : dir === 'rtl' ? `\u2066${p.code}\u2069` : p.code;
  const lead = opts.paragraphs.map((p, i) =>
    i === opts.paragraphs.length - 1 ? `${asText(p)} ${opts.openAndPress}` : asText(p),
  );
  const text = [
    opts.hello,
    '',
    ...lead.flatMap((p) => [p, '']),
    url,
    '',
    opts.validity,
    '',
    opts.riskNotice,
    '',
    `${opts.stop}: ${unsubscribeUrl}`,
  ].join('\n');
  const e = escapeHtml;
  const paragraphs = opts.paragraphs
    .map((p) =>
      typeof p === 'string'
        ? `<p style="font-size:16px;line-height:1.5">${e(p)}</p>\n`
        : `<p style="font-size:17px;line-height:1.6"><bdi dir="ltr"><span style="font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'Courier New',monospace;font-weight:bold">${e(p.code)}</span></bdi></p>\n`,
    )
    .join('');
  const html = `<!doctype html><html lang="${tag}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(
    subject,
  )}</title></head><body dir="${dir}" style="margin:0;padding:24px;background:#c9ecff;font-family:Arial,Helvetica,sans-serif;color:#0b1d4d">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border:3px solid #0b1d4d;border-radius:16px">
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:24px">${e(site)}</h1>
<p style="font-size:16px;line-height:1.5">${e(opts.hello)}</p>
${paragraphs}<p style="margin:24px 0"><a href="${e(url)}" style="display:inline-block;padding:14px 26px;background:#0b1d4d;color:#ffffff;border-radius:999px;font-weight:bold;text-decoration:none">${e(opts.button)}</a></p>
<p style="font-size:14px;line-height:1.5">${e(opts.pasteLink)}<br><a href="${e(url)}" style="color:#0b1d4d;word-break:break-all">${e(url)}</a></p>
<p style="font-size:14px;line-height:1.5">${e(opts.validity)}</p>
<p style="font-size:12px;line-height:1.5;color:#24407f">${e(opts.riskNotice)}<br><a href="${e(unsubscribeUrl)}" style="color:#24407f">${e(opts.stop)}</a></p>
</td></tr></table></td></tr></table></body></html>`;
  return { to: opts.to, subject, text, html, headers: listUnsubscribeHeaders(unsubscribeUrl) };
}
