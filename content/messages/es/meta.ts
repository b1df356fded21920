// The Spanish words are a draft written by the team, not yet read by a native speaker. Set
// `reviewed: true` and name the reviewer once one has signed them off (issue 19).
import type { TranslationReview } from '../translation-review.ts';

export const meta: TranslationReview = {
  reviewed: false,
  translatedBy: 'draft, not reviewed by a native speaker (2026-11-26)',
};
