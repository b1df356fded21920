// Renders the share image and the PNG icons from our own SVG art. resvg is a pure renderer with
// no system dependencies; the fonts ship in npm packages so the text looks the same on every
// machine. Each locale's folder names the font its card is drawn with (meta.ts's shareImageFont),
// or none when no font here can draw its script.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { messagesFor } from '../content/messages/catalog.ts';
import { localeInfo } from '../content/messages/locale-info.ts';
import { locales, type Locale, type ShareImageFont } from '../src/shared/locales.ts';
import { contentIn, type SiteContent } from '../src/shared/content-schema.ts';
import { shareImagePath } from '../src/shared/locale-paths.ts';

const require = createRequire(import.meta.url);
const dejavu = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** The font files of each font a locale's meta.ts may name: bold (the headings) and regular. */
const fontFiles: Record<ShareImageFont, readonly string[]> = {
  'DejaVu Sans': [path.join(dejavu, 'DejaVuSans-Bold.ttf'), path.join(dejavu, 'DejaVuSans.ttf')],
};

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function render(svg: string, width: number, out: string, font: ShareImageFont = 'DejaVu Sans'): void {
  const png = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false, fontFiles: [...fontFiles[font]], defaultFontFamily: font },
  })
    .render()
    .asPng();
  writeFileSync(out, png);
}

/** Wraps words into lines of at most `max` characters, for SVG text that has no wrapping. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && (line + ' ' + word).length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The share card in `locale`: its tagline, "Coming Soon" and network line in that language, laid
 * out from the right for a right-to-left language (logo and words at the right, the mascot at the
 * left). resvg shapes Arabic with DejaVu's glyphs; `direction="rtl"` with `text-anchor="end"` ends
 * each line at its x, that is, at the right.
 */
export function shareImageSvg(content: SiteContent, logoSvg: string, mascotSvg: string, locale: Locale = 'en'): string {
  const inner = (svg: string) => svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const { tag, dir, shareImageFont } = localeInfo[locale];
  const font = shareImageFont ?? 'DejaVu Sans';
  const words = messagesFor(locale).pageChrome;
  const local = contentIn(content, locale);
  const rtl = dir === 'rtl';
  // x measured from the edge the language starts at.
  const x = (fromStart: number) => (rtl ? 1200 - fromStart : fromStart);
  // A line starts at its x: a right-to-left line ends there (see above), a left-to-right one starts.
  const start = rtl ? 'end' : 'start';
  const textDir = rtl ? ' direction="rtl"' : '';
  // One <text> per line: resvg lays out mixed Arabic and Latin (the brand's name) right within one
  // element, but not across the lines of <tspan>s. Arabic's bold glyphs run wider: fewer per line.
  const tagline = wrap(local.heroTagline, rtl ? 24 : 30)
    .map(
      (l, i) =>
        `<text x="${x(80)}" y="${250 + i * 52}" text-anchor="${start}"${textDir} font-family="${font}" font-weight="bold" font-size="44" fill="#0b1d4d">${escapeXml(l)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5fb8ec"/><stop offset="1" stop-color="#c9ecff"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#sky)"/>
  <g fill="#fff" opacity=".7"><ellipse cx="980" cy="90" rx="120" ry="36"/><ellipse cx="940" cy="66" rx="50" ry="40"/><ellipse cx="1010" cy="60" rx="60" ry="48"/>
  <ellipse cx="180" cy="560" rx="140" ry="40"/><ellipse cx="140" cy="530" rx="60" ry="46"/></g>
  <svg x="${rtl ? 1200 - 80 - 96 : 80}" y="60" width="96" height="96" viewBox="0 0 64 64">${inner(logoSvg)}</svg>
  <text x="${x(196)}" y="126" text-anchor="${start}" font-family="${font}" font-weight="bold" font-size="52" fill="#0b1d4d">${escapeXml(
    `${content.name} (${content.ticker})`,
  )}</text>
  ${tagline}
  <rect x="${rtl ? 1200 - 80 - 330 : 80}" y="470" width="330" height="70" rx="35" fill="#0b1d4d"/>
  <text x="${x(245)}" y="517" text-anchor="middle"${textDir} font-family="${font}" font-weight="bold" font-size="30" fill="#fff">${escapeXml(
    words.comingSoon.toLocaleUpperCase(tag),
  )}</text>
  <text x="${x(440)}" y="517" text-anchor="${start}"${textDir} font-family="${font}" font-size="28" fill="#0b1d4d">${escapeXml(
    words.onNetwork({ network: content.network }),
  )}</text>
  <svg x="${rtl ? 80 : 820}" y="170" width="320" height="360" viewBox="0 0 320 360">${inner(mascotSvg)}</svg>
</svg>`;
}

export function makeImages(content: SiteContent, assetsDir: string, outDir: string): void {
  const logo = readFileSync(path.join(assetsDir, 'logo.svg'), 'utf8');
  const mascot = readFileSync(path.join(assetsDir, 'mascot.svg'), 'utf8');
  // One card per language whose folder names a font; the others name English's (shareImagePath).
  for (const locale of locales) {
    const font = localeInfo[locale].shareImageFont;
    if (font === null) continue;
    render(
      shareImageSvg(content, logo, mascot, locale),
      1200,
      path.join(outDir, shareImagePath(locale, font).slice(1)),
      font,
    );
  }
  for (const [name, size] of [
    ['icon-192.png', 192],
    ['icon-512.png', 512],
    ['apple-touch-icon.png', 180],
  ] as const) {
    render(logo, size, path.join(outDir, name));
  }
  writeFileSync(path.join(outDir, 'favicon.svg'), logo);
}
