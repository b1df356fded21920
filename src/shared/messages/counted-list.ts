// "2 días, 3 horas y 5 minutos": for the languages whose nouns have one form for 1 and one for the
// rest (Spanish, Portuguese), the non-zero counts joined by the language's own list rule
// (Intl.ListFormat, built into the browser: no bytes). Arabic and Chinese count their own way.

/** A count and its noun for 1 and for any other number. */
export type Counted = readonly [count: number, one: string, other: string];

export function countedList(tag: string, counts: readonly Counted[]): string {
  const parts = counts.filter(([n]) => n > 0).map(([n, one, other]) => `${n} ${n === 1 ? one : other}`);
  return new Intl.ListFormat(tag, { type: 'conjunction' }).format(parts);
}
