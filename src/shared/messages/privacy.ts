// The privacy notice (content/messages/<locale>/privacy.ts): src/client/site/privacy-page.tsx lays
// it out.
import type { RichText } from './rich-text.ts';

/** A paragraph, or a list of items. */
export type PrivacyBlock = { p: RichText } | { ul: readonly RichText[] };
export interface PrivacySection {
  heading: string;
  blocks: readonly PrivacyBlock[];
}

export interface PrivacyMessages {
  title: string;
  intro: (p: { site: string }) => string;
  sections: (p: { name: string }) => readonly PrivacySection[];
  backLink: string;
}
