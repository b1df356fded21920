// What this locale is besides its words (src/shared/locales.ts's LocaleMeta).
// The Simplified Chinese words are a draft written by the team, not yet read by a native
// speaker. Set `reviewed: true` and name the reviewer once one has signed them off.
import type { LocaleMeta } from '../../../src/shared/locales.ts';

export const meta: LocaleMeta = {
  dir: 'ltr',
  name: '简体中文',
  // The consent sentence's version on record (signup.ts's `consent`): change it with the sentence.
  consentVersion: '2026-11-26.zh-cn',
  // DejaVu, the font the build ships, has no CJK glyphs: the page names English's share image.
  shareImageFont: null,
  review: {
    reviewed: false,
    translatedBy: 'draft, not reviewed by a native speaker (2026-11-26)',
  },
};
