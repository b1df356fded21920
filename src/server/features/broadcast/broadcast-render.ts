import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { defaultLocale, type Locale } from '../../../shared/locales.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import {
  listUnsubscribeHeaders,
  type MailMessage,
  type MimeTemplate,
  mimeTemplate,
  newPlaceholder,
} from '../mail/index.ts';

// A broadcast's body is Markdown, rendered by markdown-it with raw HTML off: a tag typed into the
// body shows as text, never as markup, and markdown-it's own link check refuses javascript:,
// vbscript:, file: and data: links. Links are made from bare URLs too (linkify).
const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
// A domain written without a scheme ("t.me/DiamondHandDH") becomes an https:// link, not
// linkify-it's default http://: a broadcast links over https only (decision 0027).
md.linkify.normalize = (match) => {
  if (!match.schema) match.url = `https://${match.url}`;
  else if (match.schema === 'mailto:' && !/^mailto:/i.test(match.url)) match.url = `mailto:${match.url}`;
};

export interface RenderedBody {
  html: string;
  text: string;
}

/** The body as HTML (sanitised by construction: no raw HTML) and as plain text. */
export function renderBody(markdown: string): RenderedBody {
  const { html, text } = renderBodyWithTokens(markdown);
  return { html, text };
}

/** renderBody, with the markdown-it tokens it rendered (the guard reads their links and images). */
export function renderBodyWithTokens(markdown: string): RenderedBody & { tokens: Token[] } {
  const tokens = md.parse(markdown, {});
  return {
    html: md.renderer.render(tokens, md.options, {}),
    text: plainText(tokens)
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    tokens,
  };
}

/**
 * The text an email program shows for the HTML part (tags dropped, markdown-it's four escapes
 * undone): a link's text sits against the words after it here, as a reader sees it.
 */
export const visibleText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

// markdown-it renders HTML only; the text part is written from its tokens (what a reader sees,
// links spelled out), which also decodes entities the way the HTML part shows them.
function plainText(tokens: Token[]): string {
  let out = '';
  const lists: { ordered: boolean; n: number }[] = [];
  let quote = 0;
  const lineStart = () => (quote ? '> '.repeat(quote) : '');
  for (const t of tokens) {
    switch (t.type) {
      case 'inline':
        out += inlineText(t.children ?? []).replace(/\n/g, `\n${lineStart()}`);
        break;
      case 'paragraph_open':
        if (!t.hidden) out += lineStart();
        break;
      case 'paragraph_close':
        out += t.hidden ? '\n' : '\n\n';
        break;
      case 'heading_open':
        out += lineStart();
        break;
      case 'heading_close':
        out += '\n\n';
        break;
      case 'bullet_list_open':
        lists.push({ ordered: false, n: 0 });
        break;
      case 'ordered_list_open':
        lists.push({ ordered: true, n: Number(t.attrGet('start') ?? 1) - 1 });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        out += '\n';
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        if (list) list.n += 1;
        out += `${lineStart()}${'  '.repeat(Math.max(0, lists.length - 1))}${list?.ordered ? `${list.n}. ` : '- '}`;
        break;
      }
      case 'blockquote_open':
        quote += 1;
        break;
      case 'blockquote_close':
        quote -= 1;
        break;
      case 'fence':
      case 'code_block':
        out += `${t.content}\n`;
        break;
      case 'hr':
        out += '----\n\n';
        break;
      default:
        break;
    }
  }
  return out;
}

function inlineText(children: Token[]): string {
  let out = '';
  let href: string | null = null;
  let linkText = '';
  for (const c of children) {
    let piece = '';
    if (c.type === 'text' || c.type === 'code_inline') piece = c.content;
    else if (c.type === 'softbreak' || c.type === 'hardbreak') piece = '\n';
    else if (c.type === 'image') piece = `${c.content}${c.attrGet('src') ? ` (${c.attrGet('src') ?? ''})` : ''}`;
    else if (c.type === 'link_open') {
      href = c.attrGet('href');
      linkText = '';
      continue;
    } else if (c.type === 'link_close') {
      // A bare URL made into a link is already its own text.
      const target =
        href && !(linkText === href || `mailto:${linkText}` === href || `https://${linkText}` === href)
          ? ` (${href})`
          : '';
      out += target;
      href = null;
      continue;
    }
    if (href !== null) linkText += piece;
    out += piece;
  }
  return out;
}

/**
 * The whole email: the operator's words, then the footer every list email carries, in `locale`
 * (the locale of the version sent: `<html lang dir>` from localeInfo, the footer from that locale's
 * message file). A test send's note stays English: it is for the operator (the console is English).
 */
export function broadcastEmail(opts: {
  siteName: string;
  subject: string;
  body: RenderedBody;
  to: string;
  unsubscribeUrl: string;
  /**
   * The reader's own invite page (a signed link, features/referrals), beside the unsubscribe link;
   * left out for a test send, which goes to no subscriber.
   */
  invitePageUrl?: string;
  /** The version's locale; English when left out. */
  locale?: Locale;
  /** A test send says so at the top. */
  test?: boolean;
}): MailMessage {
  const { siteName, body, unsubscribeUrl, subject } = opts;
  const locale = opts.locale ?? defaultLocale;
  const { tag, dir } = localeInfo[locale];
  const words = messagesFor(locale).broadcastEmail;
  const why = words.why({ site: siteName });
  const stop = words.stop({ site: siteName });
  const e = escapeHtml;
  const testNote = 'This is a test send of a broadcast; subscribers have not received it.';
  const links = footerLinks(opts, { unsubscribeUrl, invitePageUrl: opts.invitePageUrl });
  const text = [...(opts.test ? [testNote, ''] : []), body.text, '', '--', why, `${stop}: ${links.text}`].join('\n');
  const html = `<!doctype html><html lang="${e(tag)}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(
    subject,
  )}</title></head><body style="margin:0;padding:24px;background:#c9ecff;font-family:Arial,Helvetica,sans-serif;color:#0b1d4d">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:3px solid #0b1d4d;border-radius:16px">
<tr><td style="padding:28px;font-size:16px;line-height:1.5">
${opts.test ? `<p dir="ltr" lang="en" style="padding:8px 12px;background:#fff3c4;border-radius:8px">${e(testNote)}</p>\n` : ''}${body.html}
<p style="font-size:12px;line-height:1.5;color:#24407f;margin-top:28px">${e(why)}<br><a href="${
    links.html
  }" style="color:#24407f">${e(opts.invitePageUrl === undefined ? stop : messagesFor(locale).referrals.pageLink)}</a></p>
</td></tr></table></td></tr></table></body></html>`;
  return {
    to: opts.to,
    subject: opts.test ? `[Test] ${subject}` : subject,
    text,
    html,
    headers: listUnsubscribeHeaders(unsubscribeUrl),
  };
}

/**
 * The footer's per-recipient part, as one run of text: the unsubscribe link, and when the reader
 * has an invite page, the words and markup between it and that page's link, and the link. One run,
 * so a version's MIME body keeps one place per recipient to fill (mime-template.ts).
 */
function footerLinks(
  opts: { siteName: string; locale?: Locale },
  urls: { unsubscribeUrl: string; invitePageUrl: string | undefined },
): { text: string; html: string } {
  const e = escapeHtml;
  const { unsubscribeUrl, invitePageUrl } = urls;
  if (invitePageUrl === undefined) return { text: unsubscribeUrl, html: e(unsubscribeUrl) };
  const locale = opts.locale ?? defaultLocale;
  const invite = messagesFor(locale).referrals.pageLink;
  const stop = messagesFor(locale).broadcastEmail.stop({ site: opts.siteName });
  return {
    text: `${unsubscribeUrl}\n${invite}: ${invitePageUrl}`,
    html: `${e(unsubscribeUrl)}" style="color:#24407f">${e(stop)}</a><br><a href="${e(invitePageUrl)}`,
  };
}

/**
 * broadcastEmail for many recipients of one version: the email is written once, with a
 * placeholder where the footer's links go (the unsubscribe link and the reader's invite page), and its MIME body is built once, at the first
 * recipient (mime-template.ts); each recipient's copy then differs only in its To, its link (in
 * both parts and in List-Unsubscribe) and the headers the outbox adds. The same email, for each,
 * as broadcastEmail writes it with their link.
 */
export function broadcastEmails(
  opts: Omit<Parameters<typeof broadcastEmail>[0], 'to' | 'unsubscribeUrl' | 'invitePageUrl'>,
): (to: string, unsubscribeUrl: string, invitePageUrl: string) => MailMessage {
  const placeholder = newPlaceholder();
  // The email as broadcastEmail writes it, with the footer's per-recipient run (footerLinks: the
  // unsubscribe link to the invite page's link) as the placeholder.
  const written = broadcastEmail({ ...opts, to: '', unsubscribeUrl: placeholder, invitePageUrl: placeholder });
  const run = footerLinks(opts, { unsubscribeUrl: placeholder, invitePageUrl: placeholder });
  const shell = {
    ...written,
    text: written.text.replace(run.text, placeholder),
    html: written.html.replace(run.html, placeholder),
  };
  let mime: MimeTemplate | undefined;
  return (to, unsubscribeUrl, invitePageUrl) => {
    const link = footerLinks(opts, { unsubscribeUrl, invitePageUrl });
    mime ??= mimeTemplate(shell.text, shell.html, placeholder, link);
    return {
      ...shell,
      to,
      text: shell.text.replaceAll(placeholder, link.text),
      html: shell.html.replaceAll(placeholder, link.html),
      headers: listUnsubscribeHeaders(unsubscribeUrl),
      template: { mime, link },
    };
  };
}
