// What this locale is besides its words (src/shared/locales.ts's LocaleMeta).
// English is the source text: the other locales translate it, so there is nothing to review it
// against.
import type { LocaleMeta } from '../../../src/shared/locales.ts';

export const meta: LocaleMeta = {
  dir: 'ltr',
  name: 'English',
  // The consent sentence's version on record (signup.ts's `consent`): change it with the sentence.
  consentVersion: '2026-11-21',
  shareImageFont: 'DejaVu Sans',
  review: {
    reviewed: true,
    reviewedBy: 'the DH team (the source text)',
    translatedBy: 'original',
  },
};
