// Just enough HTML and module parsing to list what a page makes the browser fetch. Regexes suffice
// because the input is our own server's and bundler's output, not arbitrary markup.

export type Attributes = Map<string, string>;

const decodeEntities = (s: string): string =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Attributes of every opening `<name ...>` tag, in document order. */
export function tags(html: string, name: string): Attributes[] {
  const found: Attributes[] = [];
  for (const match of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attrs: Attributes = new Map();
    for (const a of (match[1] ?? '').matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
      const key = (a[1] ?? '').toLowerCase();
      attrs.set(key, decodeEntities(a[2] ?? a[3] ?? a[4] ?? ''));
    }
    found.push(attrs);
  }
  return found;
}

const relIs = (attrs: Attributes, rel: string): boolean =>
  (attrs.get('rel') ?? '').toLowerCase().split(/\s+/).includes(rel);

export interface PageRefs {
  /** `<script type="module" src>` and `<link rel="modulepreload">`: fetched before the page is interactive. */
  modules: string[];
  /** `<script src>` without type=module. */
  classicScripts: string[];
  stylesheets: string[];
  /** `<img src>` and `<link rel="preload" as="image">`. */
  images: string[];
  /** Icons and the web app manifest: fetched by browsers, but off the critical path. */
  headExtras: string[];
}

export function pageRefs(html: string, base: string): PageRefs {
  const abs = (href: string | undefined): string[] => (href ? [new URL(href, base).href] : []);
  const unique = (urls: string[]): string[] => [...new Set(urls)];
  const scripts = tags(html, 'script').filter((s) => s.has('src'));
  const links = tags(html, 'link');
  return {
    modules: unique([
      ...scripts.filter((s) => s.get('type') === 'module').flatMap((s) => abs(s.get('src'))),
      // The page's inline loader adds its module scripts after first paint; they are still part
      // of the first load, so count them.
      ...[...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].flatMap((m) => abs(m[1])),
      ...links.filter((l) => relIs(l, 'modulepreload')).flatMap((l) => abs(l.get('href'))),
    ]),
    classicScripts: unique(scripts.filter((s) => s.get('type') !== 'module').flatMap((s) => abs(s.get('src')))),
    stylesheets: unique(links.filter((l) => relIs(l, 'stylesheet')).flatMap((l) => abs(l.get('href')))),
    images: unique([
      ...tags(html, 'img').flatMap((i) => abs(i.get('src'))),
      ...links.filter((l) => relIs(l, 'preload') && l.get('as') === 'image').flatMap((l) => abs(l.get('href'))),
    ]),
    headExtras: unique(
      links
        .filter((l) => relIs(l, 'icon') || relIs(l, 'apple-touch-icon') || relIs(l, 'manifest'))
        .flatMap((l) => abs(l.get('href'))),
    ),
  };
}

/**
 * Static `import … from "x"`, `import "x"` and `export … from "x"` specifiers of minified ES
 * module code. Dynamic `import("x")` is left out on purpose: it is not part of the first load.
 */
export function staticImports(code: string, moduleUrl: string): string[] {
  const specifiers = new Set<string>();
  const pattern = /\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\s]+)["']/g;
  for (const match of code.matchAll(pattern)) {
    const spec = match[1] ?? '';
    // Bare specifiers cannot load in a browser without an import map; the bundle has none.
    if (/^(?:\.{0,2}\/|https?:)/.test(spec)) specifiers.add(new URL(spec, moduleUrl).href);
  }
  return [...specifiers];
}
