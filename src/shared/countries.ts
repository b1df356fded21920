// Countries by their ISO 3166-1 alpha-2 codes, named from the runtime's own CLDR data
// (Intl.DisplayNames) in any language, so no list of names is kept here.

/**
 * Region codes CLDR names that are not countries of ISO 3166-1: groupings (EU, EZ, UN, QO),
 * pseudo-locales and "unknown" (XA, XB, ZZ), and codes ISO only reserves for other bodies (AC, CP,
 * CQ, DG, EA, IC, TA). XK (Kosovo) stays: it is user-assigned, but geolocation databases answer it.
 */
const NOT_COUNTRIES = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

const englishNames = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });

/**
 * Whether `code` is a country's ISO 3166-1 alpha-2 code, in capitals, as a geolocation database
 * answers it. Withdrawn codes CLDR still knows (UK, SU, YU, AN…) are not: each canonicalises to its
 * successor, so a list that names one would never match a lookup.
 */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code) || englishNames.of(code) === undefined) return false;
  const [tag] = Intl.getCanonicalLocales(`und-${code}`);
  return tag !== undefined && new Intl.Locale(tag).region === code;
}

/** Each country's name in the language of `tag` (a BCP 47 tag), as its speakers write it. */
export function countryNamesIn(tag: string, codes: readonly string[]): string[] {
  const names = new Intl.DisplayNames(tag, { type: 'region', fallback: 'code' });
  return codes.map((code) => names.of(code) ?? code);
}

/** The countries as one phrase of the language of `tag`: "the United States, Cuba and Iran". */
export function countryListIn(tag: string, codes: readonly string[]): string {
  return new Intl.ListFormat(tag, { type: 'conjunction', style: 'long' }).format(countryNamesIn(tag, codes));
}

/**
 * The countries' English names in printable ASCII, each with its code, as alternatives:
 * "Cote d'Ivoire (CI) or Cuba (CU)". A
 * Sign-In with Ethereum statement may hold nothing else (EIP-4361's grammar), and the reference
 * parser refuses a message that does; the accents go, the letters stay.
 */
export function asciiCountryList(codes: readonly string[]): string {
  const names = countryNamesIn('en', codes).map(
    (name, i) =>
      `${name
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .replace(/[\u2018\u2019]/g, "'")} (${codes[i]})`,
  );
  // "Not a resident of A or B": each is excluded, not only the pair.
  return new Intl.ListFormat('en', { type: 'disjunction', style: 'long' }).format(names);
}
