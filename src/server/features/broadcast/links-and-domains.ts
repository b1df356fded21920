import { domainToASCII } from 'node:url';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { HIDDEN } from './text-skeleton.ts';

// The guard's links, images and written domains (broadcast-guard.ts): each must stay on an
// allow-list taken from the content file (this site, its socials and presale page, the explorer's
// page of the official address), and a link that reads as an address must go there. Images come
// from this site alone: a remote one can be a scam's QR code or a tracking pixel.

export interface Target {
  kind: 'link' | 'image';
  url: string;
  /** The link's text or the image's description, as a reader sees it. */
  text: string;
  /** The title a mail program shows on hover, decoded by markdown-it. */
  title: string;
}

export function linksAndImages(tokens: Token[]): Target[] {
  const out: Target[] = [];
  for (const t of tokens) {
    if (t.type !== 'inline') continue;
    let open: Target | null = null;
    for (const c of t.children ?? []) {
      if (c.type === 'link_open')
        open = { kind: 'link', url: c.attrGet('href') ?? '', text: '', title: c.attrGet('title') ?? '' };
      else if (c.type === 'link_close') {
        if (open) out.push(open);
        open = null;
      } else if (c.type === 'image') {
        out.push({ kind: 'image', url: c.attrGet('src') ?? '', text: c.content, title: c.attrGet('title') ?? '' });
        if (open) open.text += c.content;
      } else if (open && (c.type === 'text' || c.type === 'code_inline')) open.text += c.content;
      else if (open && (c.type === 'softbreak' || c.type === 'hardbreak')) open.text += ' ';
    }
  }
  return out;
}

// markdown-it's own helpers (its dependencies, not ours): entities and backslash escapes, then
// %-codes, until nothing changes (so %2535 is decoded twice).
const { unescapeAll, lib } = new MarkdownIt().utils;
export function decodeAll(s: string): string {
  let out = s;
  for (let i = 0; i < 4; i++) {
    const next = lib.mdurl.decode(unescapeAll(out), '');
    if (next === out) break;
    out = next;
  }
  return out;
}

const bare = (host: string) => host.toLowerCase().replace(/^www\./, '');

export interface Allowed {
  site: URL;
  explorer: string;
  isAllowed(host: string): boolean;
  described: string;
}

export function allowed(policy: { siteUrl: string; linkUrls: string[]; explorerUrl: string }): Allowed {
  const site = new URL(policy.siteUrl);
  const explorer = bare(new URL(policy.explorerUrl).hostname);
  const others = [...new Set(policy.linkUrls.map((u) => bare(new URL(u).hostname)))].filter(
    (h) => h !== bare(site.hostname),
  );
  const all = new Set([bare(site.hostname), ...others, explorer]);
  return {
    site,
    explorer,
    isAllowed: (host) => all.has(bare(host)),
    described: `this site (${site.hostname}) or a site the content file lists (${[...others, `${explorer} for the contract’s page`].join(', ')})`,
  };
}

const named = (t: Target) => {
  const text = t.text.replace(HIDDEN, '').replace(/\s+/g, ' ').trim();
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return t.kind === 'image' ? (shown ? `The image “${shown}”` : 'An image') : shown ? `The link “${shown}”` : 'A link';
};
const shortUrl = (u: string) => (u.length > 80 ? `${u.slice(0, 77)}…` : u);

export function imageProblem(t: Target, hosts: Allowed, reported: Set<string>): string | null {
  const where = (() => {
    try {
      const u = new URL(t.url);
      if (u.hostname) reported.add(u.hostname.toLowerCase());
      return u.origin === hosts.site.origin
        ? null
        : u.protocol === 'data:'
          ? 'is embedded as data: in the message'
          : `is loaded from ${u.protocol === 'https:' || u.protocol === 'http:' ? u.host : u.protocol}`;
    } catch {
      return `has no full address (“${shortUrl(t.url)}”)`;
    }
  })();
  return where
    ? `${named(t)} ${where}; a broadcast may show images from this site only (${hosts.site.origin}/…): a remote image can be a scam’s QR code or a tracking pixel.`
    : null;
}

export function linkProblem(t: Target, hosts: Allowed, official: string | null, reported: Set<string>): string | null {
  let url: URL;
  try {
    url = new URL(t.url);
  } catch {
    return `${named(t)} has no full address (“${shortUrl(t.url)}”); write it in full, starting with ${hosts.site.origin}/, so it works in an email.`;
  }
  if (url.protocol === 'mailto:') {
    // Only to an address at the site's own domain: a reply-to-claim address is a classic scam.
    const domain = decodeAll(url.pathname).split('@').at(-1) ?? '';
    const at = domainToASCII(domain.toLowerCase());
    if (bare(at) !== bare(hosts.site.hostname)) {
      reported.add(at);
      return `${named(t)} writes to an email address at ${at || 'an unknown domain'}; a broadcast may link only to email addresses at ${hosts.site.hostname}.`;
    }
    return mismatch(t, at);
  }
  const host = url.hostname.toLowerCase();
  const ownSite = url.origin === hosts.site.origin;
  if (!ownSite && url.protocol !== 'https:') {
    return `${named(t)} goes to a ${url.protocol} address (${shortUrl(t.url)}); a broadcast may link only to https:// addresses (write the link in full, starting with https://) on ${hosts.described}.`;
  }
  if (!ownSite && (!hosts.isAllowed(host) || url.port !== '' || bare(host) === bare(hosts.site.hostname))) {
    reported.add(host);
    return `${named(t)} goes to ${url.host} (${shortUrl(t.url)}), which is not ${hosts.described}; a broadcast may link only there.`;
  }
  if (bare(host) === hosts.explorer && !ownSite) {
    const decoded = decodeAll(t.url).toLowerCase();
    if (!official || !decoded.includes(official.toLowerCase())) {
      return `${named(t)} goes to ${host} but not to the page of the official contract address${official ? ` (${official})` : ' (none is set in the content file yet)'}; a broadcast may link to the explorer for that page only.`;
    }
  }
  return mismatch(t, host);
}

/** Link text that reads as a domain or URL must name the host the link goes to. */
function mismatch(t: Target, host: string): string | null {
  const written = writtenHosts(t.text).find((h) => bare(h) !== bare(host));
  return written
    ? `${named(t)} reads as ${written} but goes to ${host}; a link that reads as an address must go to that address.`
    : null;
}

// A domain as written in text: dot-separated labels ending in a label of two or more letters
// ("t.me", "dh-presale.xyz", "scam.com/path"), taken as the IDNA (punycode) host a mail program
// would open. ".eth" names are ENS, refused on their own. At most 16 labels before the last: the
// bound keeps a long run of dotted letters linear.
const DOMAIN =
  /(?<![\p{L}\p{N}_/-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,16}\p{L}{2,63})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;
// A URL with a scheme stands for its host alone: its path ("/logo.png") names no site.
const URL_WITH_SCHEME = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/(?:[^\s/?#@]*@)?([^\s/?#:)\]>]+)[^\s)\]>]*/giu;
export function writtenHosts(text: string): string[] {
  const plain = text
    .replace(HIDDEN, '')
    .normalize('NFKC')
    .replace(/[\u3002\uff61]/g, '.')
    .replace(URL_WITH_SCHEME, ' $1 ');
  const hosts: string[] = [];
  for (const m of plain.matchAll(DOMAIN)) {
    const name = (m[1] ?? '').toLowerCase();
    if (name.endsWith('.eth')) continue;
    const host = domainToASCII(name) || name;
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}
