import type { SiteContent } from '../../../shared/content-schema.ts';
import { renderBodyWithTokens, visibleText } from './broadcast-render.ts';
import { addressProblems, ensNames } from './ethereum-addresses.ts';
import { hiddenCharacters } from './hidden-characters.ts';
import { allowed, decodeAll, imageProblem, linkProblem, linksAndImages, writtenHosts } from './links-and-domains.ts';
import { otherChainProblems } from './other-chain-addresses.ts';

// The one guard a launch broadcast passes before it may go out (docs/decisions/0027-broadcast-guard.md,
// amending 0015). Whoever holds one operator's session can mail every subscriber, so the guard
// refuses, in words, anything that could carry a reader to a scammer:
//  - invisible, format, joining, bidi, tag and variation-selector characters, anywhere;
//  - any Ethereum address but the official one, however it is disguised (lookalike letters per
//    Unicode TS #39, fullwidth forms, split by spaces, marks or lines, without 0x, encoded), and
//    any ENS name;
//  - any link, image or written domain outside an allow-list taken from the content file.
// Each kind of finding has its own module (hidden-characters.ts, ethereum-addresses.ts,
// other-chain-addresses.ts, links-and-domains.ts); this one decides where each looks and words
// the refusal.

export interface BroadcastPolicy {
  /** The content file's official contract address (EIP-55), or null: then no address passes. */
  officialAddress: string | null;
  /** PUBLIC_URL: the site's own origin, the only place images may come from. */
  siteUrl: string;
  /** Full URLs in the content file (socials, the presale page): a link may go to their hosts. */
  linkUrls: string[];
  /** The block explorer (content explorerUrl): a link there must be to the official address's page. */
  explorerUrl: string;
  /** The content file's official addresses on other chains (otherChainAddresses): they pass as written. */
  otherChainAddresses?: string[];
}

/** The policy the content file and PUBLIC_URL set. */
export function broadcastPolicyOf(content: SiteContent, publicUrl: string): BroadcastPolicy {
  return {
    officialAddress: content.contractAddress,
    siteUrl: publicUrl,
    linkUrls: [
      content.social.twitter.url,
      content.social.telegram.url,
      ...(content.presaleUrl ? [content.presaleUrl] : []),
    ],
    explorerUrl: content.explorerUrl,
    otherChainAddresses: content.otherChainAddresses,
  };
}

/** Every reason the draft may not go out, each a sentence or two an operator can act on. */
export function broadcastProblems(draft: { subject: string; body: string }, policy: BroadcastPolicy): string[] {
  const rendered = renderBodyWithTokens(draft.body);
  const shown = visibleText(rendered.html);
  const targets = linksAndImages(rendered.tokens);
  const problems: string[] = [];
  const add = (p: string) => {
    if (!problems.includes(p)) problems.push(p);
  };

  // 1. Invisible characters: refused outright, wherever they hide.
  hiddenCharacters(draft.subject, 'The subject', false).forEach(add);
  const inBody = hiddenCharacters(draft.body, 'The message', true);
  inBody.forEach(add);
  const decodedPlaces = [rendered.text, shown, ...targets.flatMap((t) => [decodeAll(t.url), t.title])];
  if (!inBody.length) {
    // Only written as an entity or %-code: markdown-it or the mail program decodes it.
    for (const text of decodedPlaces) hiddenCharacters(text, 'The message', false, true).forEach(add);
  }

  // 2. Addresses and ENS names, in everything a reader sees or a link carries, decoded.
  const texts = [
    draft.subject,
    decodeAll(draft.subject),
    draft.body,
    rendered.text,
    decodeAll(rendered.text),
    shown,
    ...targets.flatMap((t) => [t.url, decodeAll(t.url), t.title]),
  ];
  addressProblems(texts, policy.officialAddress).forEach(add);
  ensNames(texts).forEach(add);
  // Other chains' addresses (Bitcoin, Solana, ICAP…), but the content file's own.
  otherChainProblems(texts, policy.otherChainAddresses ?? [], policy.officialAddress).forEach(add);

  // 3. Links and images on the allow-list; link text that reads as an address must be that address.
  const hosts = allowed(policy);
  const reported = new Set<string>();
  for (const t of targets) {
    const p =
      t.kind === 'image' ? imageProblem(t, hosts, reported) : linkProblem(t, hosts, policy.officialAddress, reported);
    if (p) add(p);
  }
  // 4. A domain written in the text is as good as a link (mail programs make it one).
  for (const text of [draft.subject, rendered.text, shown, ...targets.map((t) => t.title)]) {
    for (const host of writtenHosts(text)) {
      if (reported.has(host) || hosts.isAllowed(host)) continue;
      reported.add(host);
      add(
        `The text mentions ${host}, which is not ${hosts.described}; a broadcast may name no other site (mail programs turn a written domain into a link).`,
      );
    }
  }
  return problems;
}

const SHOWN_PROBLEMS = 10;

/** Why the draft may not go out (one sentence, or a numbered list of them), or null when it may. */
export function broadcastRefusal(draft: { subject: string; body: string }, policy: BroadcastPolicy): string | null {
  const problems = broadcastProblems(draft, policy);
  if (problems.length === 0) return null;
  if (problems.length === 1) return problems[0] ?? null;
  // The first ten: an operator fixes those and saves again; a page of reasons helps nobody.
  const shown = problems.slice(0, SHOWN_PROBLEMS).map((p, i) => `${i + 1}. ${p}`);
  const more = problems.length - SHOWN_PROBLEMS;
  return [
    `This broadcast cannot go out, for ${problems.length} reasons:`,
    ...shown,
    ...(more > 0 ? [`…and ${more} more; fix these and save again to see the rest.`] : []),
  ].join('\n');
}
