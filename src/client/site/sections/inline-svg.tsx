/**
 * Our own SVG art written into the HTML rather than fetched as an <img>: a browser builds a whole
 * separate document for every SVG image, a main-thread task of 7–23 ms each on this 2-core
 * machine, which were the page's longest tasks after first paint once React was gone
 * (docs/decisions/0010-page-islands.md). Inline, it is parsed with the page, sized before the
 * first paint, and costs no request. The markup is our own file, imported at build time (never
 * visitor input), hence the raw HTML. Decorative: hidden from assistive technology.
 */
export function InlineSvg({ svg, className }: { svg: string; className: string }) {
  return <span className={className} aria-hidden="true" dangerouslySetInnerHTML={{ __html: svg }} />;
}
