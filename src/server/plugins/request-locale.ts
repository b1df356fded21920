import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { defaultLocale, locales, type Locale } from '../../shared/locales.ts';
import { localeInfo } from '../../../content/messages/locale-info.ts';
import { localeOfPath } from '../../shared/locale-paths.ts';

// Which language a request is answered in (docs/decisions/0050-a-url-per-locale.md). A document's
// language is its address (`/es/…`), never a guess, so a link always opens the same page for
// everyone and caches need no Vary. A script's JSON request says which language it wants in
// Accept-Language: the page's scripts send the page's own tag (src/client/lib/answer-language.ts);
// any other client gets its preference among ours (negotiator, the well-kept parser behind
// Express's `accepts`), else the default.

const tags = locales.map((l) => localeInfo[l].tag);

/** The locale of the page at this address: its first segment's, else the default. */
export const pageLocale = (request: FastifyRequest): Locale => localeOfPath(request.url).locale;

/** The locale a client asks for in Accept-Language, among ours; the default when none fits. */
function acceptedLocale(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  if (!header) return defaultLocale;
  const best = new Negotiator({ headers: { 'accept-language': header } }).language(tags);
  return locales.find((l) => localeInfo[l].tag === best) ?? defaultLocale;
}

/**
 * An answer's locale: a prefixed address says it; otherwise Accept-Language does for a program
 * (JSON), while a plain form posted from an English page gets English whatever the browser prefers.
 */
export function answerLocale(request: FastifyRequest, json: boolean): Locale {
  const fromPath = localeOfPath(request.url);
  if (fromPath.locale !== defaultLocale || !json) return fromPath.locale;
  return acceptedLocale(request);
}
