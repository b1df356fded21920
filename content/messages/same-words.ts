// A check for the surfaces kept as named constants (wallet, connection), which no object type can
// hold to English's: a locale's module must export exactly English's names, each a string.
// `SameWords<typeof english, typeof import('./wallet.ts')>` does not compile otherwise.
// The object surfaces need no such help: they are typed by English's object.

export type SameWords<
  English,
  Locale extends { [K in keyof English]: string } & { [K in Exclude<keyof Locale, keyof English>]: never },
> = Locale;
