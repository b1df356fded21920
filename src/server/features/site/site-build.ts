import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locale } from '../../../shared/locales.ts';
import { earlyClicksGlobal } from '../../../shared/early-clicks.ts';
import type { SitePageProps } from '../../../shared/site-pages.ts';

/** What the server needs from `npm run build`: the SSR renderer and the client's entry files. */
export interface SiteBuild {
  distDir: string;
  clientDir: string;
  renderSitePage: (props: SitePageProps) => string;
  /** What the presale banner says at `nowMs` (to the minute) in `locale`: the home page changes with it. */
  countdownSentence: (locale: Locale, opensAtMs: number, nowMs: number) => string;
  css: string;
  /**
   * The one inline script: loads the islands' loader and the beacon once the first paint is on
   * screen, and keeps taps on islands' buttons until the loader has arrived.
   */
  loaderScript: string;
  /** CSP hashes of every inline <style> the documents carry. */
  styleHashes: string[];
  /** CSP hash of the loader script. */
  scriptHashes: string[];
}

interface ManifestChunk {
  file: string;
  css?: string[];
  isEntry?: boolean;
}

export interface SsrModule {
  renderSitePage: (props: SitePageProps) => string;
  countdownSentence: (locale: Locale, opensAtMs: number, nowMs: number) => string;
}

/** A SiteBuild from its parts: the built files' (loadSiteBuild) or the sources' (the tests'). */
export function siteBuildOf(parts: {
  distDir: string;
  clientDir: string;
  ssr: SsrModule;
  css: string;
  scripts: string[];
}): SiteBuild {
  const loaderScript = loaderFor(parts.scripts);
  return {
    distDir: parts.distDir,
    clientDir: parts.clientDir,
    renderSitePage: parts.ssr.renderSitePage,
    countdownSentence: parts.ssr.countdownSentence,
    css: parts.css,
    loaderScript,
    styleHashes: [cspHash(parts.css), cspHash(noscriptCss)],
    scriptHashes: [cspHash(loaderScript)],
  };
}

// With JavaScript off nothing would tick, so the countdown's clock face (seconds and all) is not
// shown and its sentence, which the server keeps current to the minute, says it alone; the wallet
// button only flips on hover and focus, so it does not look clickable. With JavaScript on this
// <noscript> block is ignored. (The FAQ needs nothing here: <details> works without script.)
export const noscriptCss =
  '.countdown-clock{display:none}.presale-slot{min-height:0}.wallet-flip{cursor:default}.invite-copy{display:none}';

/**
 * The islands' loader and the beacon start only once the first contentful paint is on screen: the
 * page's words are already in the HTML, so nothing a visitor sees waits for JavaScript, and on a
 * slow phone the scripts' download and evaluation never stand between the request and first paint.
 *
 * "On screen" is the Paint Timing entry, not a frame and a task: that ran before the frame was
 * presented, so the two module requests (high priority) raced the first paint, and Lighthouse
 * counted them as render-blocking in about half its runs (simulated LCP 1.02–1.08 s against
 * 0.90 s; decision 0026). A browser without paint timing falls back to a frame and a task. A page
 * opened in a background tab paints, and so starts its scripts and counts its visit, only once it
 * is shown, as with the frame it waited for before.
 */
const loaderFor = (scripts: string[]): string =>
  // The product asks for every load to open at the top: turning off scroll restoration here, while
  // the page is still being parsed, stops the browser from jumping back down on a reload. (It is
  // not done later, when a visitor may already have scrolled.)
  'if("scrollRestoration"in history)history.scrollRestoration="manual";' +
  languageOfferScript +
  earlyClicksScript +
  // go() runs once on either path: the observer disconnects before calling it.
  '(function(u){var P=window.PerformanceObserver;' +
  'function go(){u.forEach(function(s){var e=document.createElement("script");e.type="module";e.src=s;document.head.appendChild(e)})}' +
  'if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)' +
  'new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});' +
  `else requestAnimationFrame(function(){setTimeout(go)})})(${JSON.stringify(scripts)})`;

/**
 * Keeps the taps on an island's script-only buttons (type="button": without script they do
 * nothing) that land between the first paint and the loader's arrival, which on a slow phone is the
 * loader's download: the loader takes them (src/client/site/entry-client.ts), wakes their islands
 * and replays them, as it does for taps while an island's own code is on the way. Submit buttons
 * and links are left alone: they already work without script, and a replay would act twice. A
 * button tapped again because nothing happened is kept once: the person meant it once.
 */
const earlyClicksScript =
  '(function(){var q=[];function c(e){var b=e.target.closest&&e.target.closest("[data-island] button[type=button]");if(b&&q.indexOf(b)<0)q.push(b)}' +
  `document.addEventListener("click",c,true);window.${earlyClicksGlobal}=function(){document.removeEventListener("click",c,true);return q}})();`;

/**
 * Shows the home page's offer of another language (sections/language-offer.tsx) when the browser
 * prefers one of ours before the page's own: the first of navigator.languages that is ours
 * decides, by its primary language (es-MX is Spanish; zh is Simplified Chinese unless it says
 * Traditional or names Taiwan, Hong Kong or Macao). Dismissed, it stays away for the tab's
 * session. By hand: a library would be more bytes than this, in the one script every visitor runs.
 * Fixed at the bottom of the screen, so showing it moves nothing (no layout shift).
 */
const languageOfferScript =
  '(function(){var o=document.querySelector("[data-language-offer]");if(!o)return;' +
  'try{if(sessionStorage.getItem("dh-language-offer"))return}catch(e){}' +
  'function m(t,l){t=t.toLowerCase();l=l.toLowerCase();var p=l.split("-")[0];' +
  'return t===l||(t.split("-")[0]===p&&(p!=="zh"||!/-(tw|hk|mo|hant)\\b/.test(t)))}' +
  'var a=o.querySelectorAll("a"),L=navigator.languages||[navigator.language],i,j;' +
  'for(i=0;i<L.length;i++){if(m(L[i],document.documentElement.lang))return;' +
  'for(j=0;j<a.length;j++)if(m(L[i],a[j].lang)){a[j].hidden=false;o.hidden=false;' +
  'o.querySelector("button").onclick=function(){o.hidden=true;try{sessionStorage.setItem("dh-language-offer","1")}catch(e){}};return}}})();';

const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const hasSiteBuild = (distDir: string): boolean =>
  existsSync(path.join(distDir, 'client/.vite/manifest.json')) && existsSync(path.join(distDir, 'ssr/entry-server.js'));

export async function loadSiteBuild(distDir: string): Promise<SiteBuild> {
  if (!hasSiteBuild(distDir)) {
    throw new Error(`No site build in ${distDir}. Run \`npm run build\` first.`);
  }
  const clientDir = path.join(distDir, 'client');
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = manifest['src/client/site/entry-client.ts'];
  const beacon = manifest['src/client/analytics/beacon.ts'];
  if (!entry || !beacon) throw new Error('The client build lacks the page or beacon entry; run `npm run build`.');
  // With cssCodeSplit off, Vite lists the one stylesheet as its own manifest entry.
  const cssFiles = new Set([
    ...(entry.css ?? []),
    ...Object.values(manifest)
      .map((c) => c.file)
      .filter((f) => f.endsWith('.css')),
  ]);
  const css = [...cssFiles].map((f) => readFileSync(path.join(clientDir, f), 'utf8')).join('\n');
  if (css === '') throw new Error('The client build has no stylesheet.');
  const ssr = (await import(pathToFileURL(path.join(distDir, 'ssr/entry-server.js')).href)) as SsrModule;
  return siteBuildOf({ distDir, clientDir, ssr, css, scripts: [`/${entry.file}`, `/${beacon.file}`] });
}
