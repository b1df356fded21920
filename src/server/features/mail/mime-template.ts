import { randomBytes } from 'node:crypto';
import * as base64 from 'nodemailer/lib/base64';
import MimeNode from 'nodemailer/lib/mime-node';
import * as qp from 'nodemailer/lib/qp';

// A broadcast's MIME body, built once per version: composing each email with
// nodemailer's MailComposer was two thirds of the worker's busy time, and every recipient's copy
// differs from the others' only in its headers and its unsubscribe link. The parts are nodemailer's
// own (its MimeNode headers, its quoted-printable and base64 encoders, the same choice of encoding
// per part), so a copy filled here is the email nodemailer would have built from the same text and
// html, byte for byte but for the multipart boundary; mime-template.test.ts holds them side by side.

/** What changes per recipient: where their own link goes in each part. */
export interface TemplateLink {
  /** The link as the text part spells it. */
  text: string;
  /** The link as the HTML part spells it (escaped for an attribute). */
  html: string;
}

interface Part {
  /** The part's header block, for the encoding the template chose. */
  head: string;
  transferEncoding: string | false;
  contentType: string;
  /** The content with the link's placeholder: filled per recipient. */
  content: string;
  /** Quoted-printable only: the encoded lines before and after those holding the link, built once. */
  encodedBefore: string;
  encodedAfter: string;
  /** The lines holding the link (unencoded), split where it goes. */
  linkLines: string[];
}

export interface MimeTemplate {
  /** The shared part of the multipart boundary: nodemailer's root boundary is made of it. */
  baseBoundary: string;
  parts: Part[];
  placeholder: string;
}

const TEXT = 'text/plain; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

/** The text content's encoded form as nodemailer's stream encoders write it (76-column lines). */
function encodeContent(content: string, transferEncoding: string | false): string {
  if (transferEncoding === 'quoted-printable') return qp.wrap(qp.encode(content), 76);
  if (transferEncoding === 'base64') return base64.wrap(base64.encode(content), 76);
  return content;
}

/** A text part as nodemailer's MailComposer makes it: its header block and its transfer encoding. */
function partHead(contentType: string, content: string): { head: string; transferEncoding: string | false } {
  const root = new MimeNode('multipart/alternative');
  const node = root.createChild(contentType).setContent(content);
  return { head: node.buildHeaders(), transferEncoding: node.getTransferEncoding() };
}

function templatePart(contentType: string, content: string, placeholder: string, sample: string): Part {
  // The encoding is chosen for a real link, as long as a recipient's: a placeholder's length could
  // tip a short text to 7bit that every recipient's copy then re-encodes.
  const { head, transferEncoding } = partHead(contentType, content.replaceAll(placeholder, sample));
  const lines = content.split('\n');
  const first = lines.findIndex((l) => l.includes(placeholder));
  const last = lines.findLastIndex((l) => l.includes(placeholder));
  // Quoted-printable is line by line (a hard line break ends every soft-wrapped run), so the lines
  // around the link are encoded once and only the link's own lines per recipient. Base64 runs
  // across lines: such a part (a text mostly outside Latin script) is encoded whole per recipient.
  const split = transferEncoding === 'quoted-printable' && first !== -1;
  const before = split
    ? lines
        .slice(0, first)
        .map((l) => `${l}\n`)
        .join('')
    : '';
  const after = split ? lines.slice(last + 1).join('\n') : '';
  return {
    head,
    transferEncoding,
    contentType,
    content,
    encodedBefore: split ? encodeContent(before, transferEncoding) : '',
    encodedAfter: split ? encodeContent(after === '' ? '' : `\n${after}`, transferEncoding) : '',
    linkLines: split ? lines.slice(first, last + 1) : [],
  };
}

/**
 * The template of an email whose text and html hold `placeholder` where each recipient's link
 * goes (a word of letters and digits, which no encoding changes); `sample` is one recipient's link.
 */
export function mimeTemplate(text: string, html: string, placeholder: string, sample: TemplateLink): MimeTemplate {
  return {
    baseBoundary: randomBytes(8).toString('hex'),
    parts: [templatePart(TEXT, text, placeholder, sample.text), templatePart(HTML, html, placeholder, sample.html)],
    placeholder,
  };
}

/** A word to stand for the link while the template is built: letters and digits only. */
export const newPlaceholder = (): string => `dhlink${randomBytes(12).toString('hex')}`;

/** The transfer encoding nodemailer chooses for this content (7bit for short plain lines; else Q or B by script). */
const encodingOf = (contentType: string, content: string): string | false =>
  new MimeNode(contentType).setContent(content).getTransferEncoding();

function filledPart(part: Part, placeholder: string, link: string): string {
  const content = part.content.replaceAll(placeholder, link);
  const transferEncoding = encodingOf(part.contentType, content);
  // A link that tips the choice of encoding (or a part without one) is encoded whole, as nodemailer would.
  if (part.linkLines.length === 0 || transferEncoding !== part.transferEncoding) {
    const head = transferEncoding === part.transferEncoding ? part.head : partHead(part.contentType, content).head;
    return `${head}\r\n\r\n${encodeContent(content, transferEncoding)}`;
  }
  const middle = encodeContent(part.linkLines.map((l) => l.replaceAll(placeholder, link)).join('\n'), transferEncoding);
  return `${part.head}\r\n\r\n${part.encodedBefore}${middle}${part.encodedAfter}`;
}

/**
 * One recipient's email: `headers` (built by nodemailer's MimeNode, as MailComposer sets them on
 * the root: the caller's own first, then From, To, Subject, Message-ID and Date), then the
 * template's parts with their link.
 */
export function fillMimeTemplate(
  template: MimeTemplate,
  root: {
    from: string;
    to: string;
    subject: string;
    headers: Record<string, string>;
    messageId?: string | undefined;
    date?: Date;
  },
  link: TemplateLink,
): Buffer {
  const node = new MimeNode('multipart/alternative', { baseBoundary: template.baseBoundary });
  node.addHeader(root.headers);
  node.setHeader('from', root.from);
  node.setHeader('to', root.to);
  node.setHeader('subject', root.subject);
  if (root.messageId) node.setHeader('message-id', root.messageId);
  if (root.date) node.setHeader('date', root.date);
  const head = node.buildHeaders();
  const boundary = String(node.boundary);
  const [text, html] = template.parts;
  if (!text || !html) throw new Error('A MIME template has a text and an HTML part.');
  const body =
    `--${boundary}\r\n${filledPart(text, template.placeholder, link.text)}` +
    `\r\n--${boundary}\r\n${filledPart(html, template.placeholder, link.html)}` +
    `\r\n--${boundary}--\r\n`;
  return Buffer.from(`${head}\r\n\r\n${body}`, 'utf8');
}
