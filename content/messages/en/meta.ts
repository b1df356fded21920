// English is the source text: the other locales translate it, so there is nothing to review it against.
import type { TranslationReview } from '../translation-review.ts';

export const meta: TranslationReview = {
  reviewed: true,
  reviewedBy: 'the DH team (the source text)',
  translatedBy: 'original',
};
