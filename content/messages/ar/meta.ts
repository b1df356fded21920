// What this locale is besides its words (src/shared/locales.ts's LocaleMeta).
// The Arabic words are a draft written by the team, not yet read by a native speaker. Set
// `reviewed: true` and name the reviewer once one has signed them off.
import type { LocaleMeta } from '../../../src/shared/locales.ts';

export const meta: LocaleMeta = {
  dir: 'rtl',
  name: 'العربية',
  // The consent sentence's version on record (signup.ts's `consent`): change it with the sentence.
  consentVersion: '2026-11-26.ar',
  shareImageFont: 'DejaVu Sans',
  review: {
    reviewed: false,
    translatedBy: 'draft, not reviewed by a native speaker (2026-11-26)',
  },
};
