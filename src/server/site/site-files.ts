import type { SiteContent } from '../../shared/content-schema.ts';
import type { SignupView } from '../../shared/signup-schema.ts';
import { filePaths, pagePaths } from '../../shared/paths.ts';
import type { Notice, SitePageName, SitePageProps } from '../../shared/site-pages.ts';
import { renderDocument } from './document.ts';
import { memoryFile, type MemoryFile } from './memory-file.ts';
import type { SiteBuild } from './site-build.ts';

type StaticPage = Exclude<SitePageName, 'notice'>;

export interface SiteFiles {
  pages: Record<StaticPage, MemoryFile>;
  robots: MemoryFile;
  sitemap: MemoryFile;
  manifest: MemoryFile;
  /** The home page showing a sign-up result (no-JavaScript answer): rendered per request. */
  renderHomeWithSignup(signup: SignupView): string;
  /**
   * A short page about a confirm or unsubscribe link: what it is about and its one button, or what
   * pressing it did. Rendered per request.
   */
  renderNotice(notice: Notice): string;
}

const indexedPaths = [pagePaths.home, pagePaths.privacy];

/**
 * Renders every public document once, at start-up, with the runtime PUBLIC_URL in its links.
 * Doing it here rather than writing HTML files at build keeps one render path for static pages
 * and for pages that show a result (see docs/decisions/0002-prerendering.md).
 */
export function buildSiteFiles(opts: {
  build: SiteBuild;
  content: SiteContent;
  publicUrl: string;
  year: number;
}): SiteFiles {
  const { build, content, publicUrl, year } = opts;
  const fullName = `${content.name} (${content.ticker})`;
  const html = 'text/html; charset=utf-8';
  const render = (props: SitePageProps, title: string, description: string, canonicalPath?: string) =>
    renderDocument({
      build,
      content,
      publicUrl,
      props,
      title,
      description,
      ...(canonicalPath === undefined ? {} : { canonicalPath }),
    });
  const page = (name: StaticPage, title: string, description: string, canonicalPath?: string) =>
    memoryFile(render({ page: name, year }, title, description, canonicalPath), html);

  return {
    renderHomeWithSignup: (signup) => render({ page: 'home', year, signup }, fullName, content.description, pagePaths.home),
    renderNotice: (notice) => render({ page: 'notice', year, notice }, `${notice.title} · ${fullName}`, notice.message),
    pages: {
      home: page('home', fullName, content.description, pagePaths.home),
      privacy: page(
        'privacy',
        `Privacy notice · ${fullName}`,
        `What the ${fullName} website collects, why, and how to have it erased.`,
        pagePaths.privacy,
      ),
      'not-found': page('not-found', `Page not found · ${fullName}`, `There is nothing at this address.`),
    },
    robots: memoryFile(
      `User-agent: *\nAllow: /\nDisallow: ${pagePaths.admin}\n\nSitemap: ${publicUrl}${filePaths.sitemap}\n`,
      'text/plain; charset=utf-8',
    ),
    sitemap: memoryFile(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${indexedPaths
        .map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`)
        .join('\n')}\n</urlset>\n`,
      'application/xml; charset=utf-8',
    ),
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
