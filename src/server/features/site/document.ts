import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { locales } from '../../../shared/locales.ts';
import type { SiteContent } from '../../../shared/content-schema.ts';
import { alternates, localePath, shareImagePath } from '../../../shared/locale-paths.ts';
import type { SitePageProps } from '../../../shared/site-pages.ts';
import { filePaths } from '../../../shared/paths.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { noscriptCss, type SiteBuild } from './site-build.ts';

export interface DocumentInput {
  build: SiteBuild;
  content: SiteContent;
  publicUrl: string;
  props: SitePageProps;
  /**
   * Path of this page on the public site (as pagePaths writes it; the locale's segment is added
   * here), for the canonical link and the links to its translations; omit for pages not to index.
   */
  canonicalPath?: string;
  title: string;
  description: string;
}

// JSON inside <script> must not be able to close the tag.
const safeJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

function faqJsonLd(content: SiteContent): string {
  return safeJson({
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: content.faq.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  });
}

/** The full HTML document around the React-rendered body. */
export function renderDocument(input: DocumentInput): string {
  const { build, content, publicUrl, props, canonicalPath, title, description } = input;
  const body = build.renderSitePage(props);
  const fullName = `${content.name} (${content.ticker})`;
  const image = `${publicUrl}${shareImagePath(props.locale, localeInfo[props.locale].shareImageFont)}`;
  const { locale } = props;
  const { tag, dir } = localeInfo[locale];
  const canonical = canonicalPath === undefined ? null : `${publicUrl}${localePath(locale, canonicalPath)}`;
  const e = escapeHtml;
  // Open Graph writes a locale with an underscore (pt_BR).
  const ogLocale = (t: string) => t.replace('-', '_');
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}</title>`,
    `<meta name="description" content="${e(description)}">`,
    canonical ? `<link rel="canonical" href="${e(canonical)}">` : '<meta name="robots" content="noindex">',
    ...(canonicalPath === undefined
      ? []
      : alternates(publicUrl, canonicalPath).map(
          (a) => `<link rel="alternate" hreflang="${a.hreflang}" href="${e(a.href)}">`,
        )),
    `<meta name="theme-color" content="${e(content.theme.background)}">`,
    `<link rel="icon" href="${filePaths.favicon}" type="image/svg+xml">`,
    `<link rel="apple-touch-icon" href="${filePaths.appleTouchIcon}">`,
    `<link rel="manifest" href="${filePaths.manifest}">`,
    '<meta property="og:type" content="website">',
    `<meta property="og:locale" content="${ogLocale(tag)}">`,
    ...locales
      .filter((l) => l !== locale)
      .map((l) => `<meta property="og:locale:alternate" content="${ogLocale(localeInfo[l].tag)}">`),
    `<meta property="og:site_name" content="${e(fullName)}">`,
    `<meta property="og:title" content="${e(title)}">`,
    `<meta property="og:description" content="${e(description)}">`,
    canonical ? `<meta property="og:url" content="${e(canonical)}">` : '',
    `<meta property="og:image" content="${e(image)}">`,
    '<meta property="og:image:width" content="1200">',
    '<meta property="og:image:height" content="630">',
    `<meta property="og:image:alt" content="${e(`${fullName}: ${content.heroTagline}`)}">`,
    '<meta name="twitter:card" content="summary_large_image">',
    `<meta name="twitter:title" content="${e(title)}">`,
    `<meta name="twitter:description" content="${e(description)}">`,
    `<meta name="twitter:image" content="${e(image)}">`,
    `<style>${build.css}</style>`,
    `<noscript><style>${noscriptCss}</style></noscript>`,
    props.page === 'home' ? `<script type="application/ld+json">${faqJsonLd(content)}</script>` : '',
  ]
    .filter(Boolean)
    .join('');
  // Nothing hydrates the page as a whole, so it carries no page props: each island carries its
  // own in a data attribute (src/client/site/islands/island.tsx), so the CSP needs no hash.
  return `<!doctype html><html lang="${tag}" dir="${dir}"><head>${head}</head><body><div id="root">${body}</div><script>${
    build.loaderScript
  }</script></body></html>`;
}
