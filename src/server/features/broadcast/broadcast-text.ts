import { createHash } from 'node:crypto';
import {
  type BroadcastDraft,
  type BroadcastDraftInput,
  translatedLocales,
  versionLocales,
} from '../../../shared/admin/broadcast-schema.ts';

// What an approval binds to and what the audit log keeps of a text: its hash and which versions
// it has, never the words themselves (an operator's draft is not the log's to keep).

/** A draft as the store keeps it: every version, and the fallback, spelled out. */
export const completeDraft = (d: BroadcastDraftInput): BroadcastDraft => ({
  subject: d.subject,
  body: d.body,
  translations: d.translations ?? {},
  englishFallback: d.englishFallback ?? true,
});

/**
 * SHA-256 (hex) of every version of a broadcast and whether English falls back: what an approval
 * binds to (so editing any version, or the fallback, voids it), and what the audit log records of
 * an edit instead of the text. JSON keeps the parts apart ("a" + "bc" ≠ "ab" + "c"). An
 * English-only broadcast that falls back (every broadcast before migration 0021) hashes as it did,
 * so approvals given before it still hold.
 */
export function textHash(input: BroadcastDraftInput): string {
  const d = completeDraft(input);
  const versions = translatedLocales.flatMap((l) => {
    const v = d.translations[l];
    return v ? [[l, v.subject, v.body]] : [];
  });
  const parts =
    versions.length === 0 && d.englishFallback ? [d.subject, d.body] : [d.subject, d.body, d.englishFallback, versions];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Which locales have a version, and who gets English: for the audit log, never the text. */
export function versionsNote(input: BroadcastDraftInput): string {
  const d = completeDraft(input);
  const own = versionLocales(d);
  const rest = translatedLocales.filter((l) => !d.translations[l]);
  const fallback = rest.length === 0 ? '' : d.englishFallback ? `; English for ${rest.join(', ')}` : '; no fallback';
  return `versions ${own.join(', ')}${fallback}`;
}

export const hashNote = (hash: string): string => `text sha256:${hash}`;
export const textNote = (d: BroadcastDraftInput): string => `${hashNote(textHash(d))}; ${versionsNote(d)}`;
