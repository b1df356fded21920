// What a locale's meta.ts says of its words. A module of its own so that the locales' meta.ts
// files and review.ts (which lists them) each import it and not each other (decision 0044).

/** Who wrote a locale's words and whether a native speaker has reviewed them. */
export type TranslationReview =
  | {
      reviewed: true;
      /** Who signed it off, e.g. "Ana Souza (native speaker), 2026-12-02". */
      reviewedBy: string;
      translatedBy: string;
    }
  | {
      reviewed: false;
      translatedBy: string;
    };
