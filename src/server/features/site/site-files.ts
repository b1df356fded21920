import { messagesFor } from '../../../../content/messages/catalog.ts';
import { defaultLocale, locales, type Locale } from '../../../shared/locales.ts';
import { contentIn, type SiteContent } from '../../../shared/content-schema.ts';
import { alternates, localePath } from '../../../shared/locale-paths.ts';
import type { SignupView } from '../../../shared/signup-schema.ts';
import { filePaths, pagePaths } from '../../../shared/paths.ts';
import type { Notice, PresaleProps, SitePageName, SitePageProps, WalletProps } from '../../../shared/site-pages.ts';
import { randomBytes } from 'node:crypto';
import { renderDocument } from './document.ts';
import { memoryFile, type MemoryFile } from './memory-file.ts';
import type { SiteBuild } from './site-build.ts';
import { compressed, slottedFile, type SlottedFile } from './slotted-file.ts';

type StaticPage = Exclude<SitePageName, 'notice'>;

/** One locale's documents. */
interface LocaleFiles {
  /**
   * The pages every visitor gets. Each read gives the page as it reads now: a page whose words
   * depend on the time (the presale countdown, the footer's year) is rendered again when, and
   * only when, those words change; otherwise it is the same bytes, compression and ETag.
   */
  readonly pages: Readonly<Record<StaticPage, MemoryFile>>;
  /**
   * The home page showing a sign-up result (no-JavaScript answer), and carrying the invite code
   * the form came with, if any: rendered per request.
   */
  renderHomeWithSignup(signup: SignupView, invite?: string): string;
  /**
   * The home page for a visitor who came through a friend's invite link (a well-formed code): the
   * line that says so, and the form carrying the code (in the island's props and the plain form's
   * hidden field), with a slot where the code goes. Kept in memory and compressed as the home page
   * is, and rendered again when it is; each visit only fills in its code (slotted-file.ts).
   */
  readonly homeWithInvite: SlottedFile;
  /**
   * A short page about a confirm or unsubscribe link: what it is about and its one button, or what
   * pressing it did. Rendered per request.
   */
  renderNotice(notice: Notice): string;
}

/** Every locale's documents (the default locale's also at the top), and the site-wide files. */
export interface SiteFiles extends Omit<LocaleFiles, 'homeWithInvite'> {
  in(locale: Locale): LocaleFiles;
  /**
   * Makes every locale's invite page's compressed forms now, rather than at each one's first visit
   * (which starts them otherwise); settles when they are made. For tests and benches that need them.
   */
  compressInvitePages(): Promise<void>;
  robots: MemoryFile;
  sitemap: MemoryFile;
  manifest: MemoryFile;
}

const indexedPaths = [pagePaths.home, pagePaths.privacy, pagePaths.terms];

/**
 * A page kept rendered and compressed in memory, rendered again only when `wordsAt(now)` (the
 * part of it that depends on the time) changes. Checked on each read, so a page nobody asks for
 * costs nothing, and a busy one at most one render a minute (the countdown reads to the minute).
 */
function timedPage<File>(clock: () => Date, wordsAt: (now: Date) => string, make: (now: Date) => File) {
  let words: string | undefined;
  let file: File | undefined;
  return (): File => {
    const now = clock();
    const current = wordsAt(now);
    if (file === undefined || current !== words) {
      file = make(now);
      words = current;
    }
    return file;
  };
}

/**
 * What the invite page is rendered with where the code goes: a well-formed code (22 characters of
 * base64url, as every code's slot is long), random per process, so it is found nowhere else.
 */
const INVITE_SLOT = randomBytes(16).toString('base64url');

/**
 * Renders every public document at start-up, with the runtime PUBLIC_URL in its links, and again
 * when its time-dependent words change (see `timedPage`). Doing it here rather than writing HTML
 * files at build keeps one render path for static pages and for pages that show a result (see
 * docs/decisions/0002-prerendering.md).
 */
export function buildSiteFiles(opts: {
  build: SiteBuild;
  content: SiteContent;
  publicUrl: string;
  /** The app's clock: what "now" is for the countdown and the footer's year. */
  clock: () => Date;
}): SiteFiles {
  const { content, publicUrl } = opts;
  const byLocale = Object.fromEntries(locales.map((l) => [l, localeFiles({ ...opts, locale: l })])) as Record<
    Locale,
    LocaleFiles
  >;
  const fullName = `${content.name} (${content.ticker})`;
  const home = byLocale[defaultLocale];
  return {
    pages: home.pages,
    renderHomeWithSignup: home.renderHomeWithSignup,
    renderNotice: home.renderNotice,
    in: (locale) => byLocale[locale],
    compressInvitePages: async () => {
      await Promise.all(locales.map((l) => compressed(byLocale[l].homeWithInvite)));
    },
    robots: memoryFile(
      `User-agent: *\nAllow: /\nDisallow: ${pagePaths.admin}\n\nSitemap: ${publicUrl}${filePaths.sitemap}\n`,
      'text/plain; charset=utf-8',
    ),
    sitemap: memoryFile(sitemapXml(publicUrl), 'application/xml; charset=utf-8'),
    manifest: memoryFile(
      JSON.stringify({
        name: fullName,
        short_name: content.ticker,
        description: content.description,
        start_url: pagePaths.home,
        display: 'standalone',
        background_color: content.theme.background,
        theme_color: content.theme.background,
        icons: [
          { src: filePaths.icon192, sizes: '192x192', type: 'image/png' },
          { src: filePaths.icon512, sizes: '512x512', type: 'image/png' },
          { src: filePaths.favicon, sizes: 'any', type: 'image/svg+xml' },
        ],
      }),
      'application/manifest+json; charset=utf-8',
    ),
  };
}

/**
 * Each indexed page in every language, each naming all its translations and the default one
 * (x-default: English at the root), as Google's sitemap form of hreflang asks.
 * https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap
 */
function sitemapXml(publicUrl: string): string {
  const urls = indexedPaths.flatMap((path) => {
    const links = alternates(publicUrl, path)
      .map((a) => `    <xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${a.href}"/>`)
      .join('\n');
    return locales.map((l) => `  <url>\n    <loc>${publicUrl}${localePath(l, path)}</loc>\n${links}\n  </url>`);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

function localeFiles(opts: {
  build: SiteBuild;
  content: SiteContent;
  publicUrl: string;
  clock: () => Date;
  locale: Locale;
}): LocaleFiles {
  const { build, publicUrl, clock, locale } = opts;
  const content = contentIn(opts.content, locale);
  const fullName = `${content.name} (${content.ticker})`;
  const words = messagesFor(locale).pageChrome;
  const titled = (title: string) => words.titled({ title, site: fullName });
  const html = 'text/html; charset=utf-8';
  const { version, restrictedCountries } = content.presaleTerms;
  // `canonicalPath` is the page's path in English; the document links this locale's own.
  const render = (props: SitePageProps, title: string, description: string, canonicalPath?: string) =>
    renderDocument({
      build,
      content,
      publicUrl,
      props: { ...props, terms: { version, restrictedCountries } },
      title,
      description,
      ...(canonicalPath === undefined ? {} : { canonicalPath }),
    });
  const year = (now: Date) => now.getUTCFullYear();
  const { presaleDate, presaleUrl } = content;
  const presaleAt = (now: Date): { presale?: PresaleProps } =>
    presaleDate === null || presaleUrl === null
      ? {}
      : { presale: { opensAt: presaleDate, url: presaleUrl, renderedAt: now.getTime() } };
  // Every page's header shows the wallet; the home page also has the allowlist's block.
  const { mode, chainId } = content.wallet;
  const wallet: { wallet?: WalletProps } = mode === 'coming-soon' ? {} : { wallet: { mode, chainId } };
  const homeProps = (now: Date): SitePageProps => ({
    page: 'home',
    year: year(now),
    locale,
    ...presaleAt(now),
    ...wallet,
  });
  const homeWords = (now: Date): string =>
    `${year(now)} ${presaleDate === null ? '' : build.countdownSentence(locale, Date.parse(presaleDate), now.getTime())}`;

  const page = (name: Exclude<StaticPage, 'home'>, title: string, description: string, canonicalPath?: string) =>
    timedPage(
      clock,
      (now) => String(year(now)),
      (now) =>
        memoryFile(render({ page: name, year: year(now), locale, ...wallet }, title, description, canonicalPath), html),
    );
  const home = timedPage(clock, homeWords, (now) =>
    memoryFile(render(homeProps(now), fullName, content.description, pagePaths.home), html),
  );
  // The same page with the invite's line and a slot for its code, kept as the home page is.
  const homeWithInvite = timedPage(clock, homeWords, (now) =>
    slottedFile(
      render({ ...homeProps(now), invite: INVITE_SLOT }, fullName, content.description, pagePaths.home),
      INVITE_SLOT,
      html,
    ),
  );
  const privacy = page(
    'privacy',
    titled(messagesFor(locale).privacy.title),
    words.privacyDescription({ site: fullName }),
    pagePaths.privacy,
  );
  const terms = page('terms', titled(words.terms.link), words.terms.description({ site: fullName }), pagePaths.terms);
  const notFound = page('not-found', titled(words.notFound.title), words.notFound.description);

  return {
    renderHomeWithSignup: (signup, invite) =>
      render(
        { ...homeProps(clock()), signup, ...(invite === undefined ? {} : { invite }) },
        fullName,
        content.description,
        pagePaths.home,
      ),
    get homeWithInvite() {
      return homeWithInvite();
    },
    renderNotice: (notice) =>
      render({ page: 'notice', year: year(clock()), locale, notice, ...wallet }, titled(notice.title), notice.message),
    pages: {
      get home() {
        return home();
      },
      get privacy() {
        return privacy();
      },
      get terms() {
        return terms();
      },
      get 'not-found'() {
        return notFound();
      },
    },
  };
}
