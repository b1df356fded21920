// Arabic gives a counted noun five forms (CLDR's one, two, few, many, other), which a "1 or not"
// test cannot carry: Intl.PluralRules (built into the browser, no bytes) picks the category.
// Draft, not yet reviewed by a native speaker (./meta.ts).

export interface ArabicForms {
  /** The whole phrase, without the numeral, as Arabic writes it: "يوم واحد". */
  one: string;
  /** The dual, also without the numeral: "يومين". */
  two: string;
  /** 3–10: "أيام". */
  few: string;
  /** 11–99: "يومًا". */
  many: string;
  /** 100, 101, 102…: "يوم". */
  other: string;
}

/** `n` and its noun in the form Arabic gives that number; `shown` is how the numeral is written. */
export function counted(n: number, forms: ArabicForms, shown = String(n)): string {
  switch (new Intl.PluralRules('ar').select(n)) {
    case 'one':
      return forms.one;
    case 'two':
      return forms.two;
    case 'few':
      return `${shown} ${forms.few}`;
    case 'many':
      return `${shown} ${forms.many}`;
    default:
      return `${shown} ${forms.other}`;
  }
}

/** Seconds after "بعد" (so in the genitive: "بعد ثانيتين"). */
export const secondsAfter: ArabicForms = {
  one: 'ثانية واحدة',
  two: 'ثانيتين',
  few: 'ثوانٍ',
  many: 'ثانيةً',
  other: 'ثانية',
};
