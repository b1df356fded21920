import { describe, expect, it } from 'vitest';
import { broadcastDraftSchema } from '../../../shared/admin/broadcast-schema.ts';
import { languageName, namesOf } from '../../../shared/admin/locale-names.ts';
import { locales } from '../../../shared/locales.ts';
import { draftOf, type EditorVersions } from './use-broadcast-editor.ts';

const empty = { subject: '', body: '' };
// Every registered locale untouched, so a locale added to the registry needs nothing here.
const versions = (over: Partial<EditorVersions>): EditorVersions => ({
  ...(Object.fromEntries(locales.map((l) => [l, empty])) as EditorVersions),
  en: { subject: 'Soon', body: 'The presale opens soon.' },
  ...over,
});

describe('the composer’s versions', () => {
  it('sends the locales with any text, leaves the untouched ones out, and keeps the fallback', () => {
    const draft = draftOf(versions({ es: { subject: 'Pronto', body: 'La preventa abre pronto.' } }), false);
    expect(draft).toEqual({
      subject: 'Soon',
      body: 'The presale opens soon.',
      translations: { es: { subject: 'Pronto', body: 'La preventa abre pronto.' } },
      englishFallback: false,
    });
    expect(broadcastDraftSchema.safeParse(draft).success).toBe(true);
  });

  it('sends a half-written version, so the schema names what it lacks, under that locale', () => {
    const checked = broadcastDraftSchema.safeParse(draftOf(versions({ ar: { subject: 'قريبًا', body: '' } }), true));
    expect(checked.success).toBe(false);
    // (An empty body fails two checks with the same words; the editor shows the first.)
    const issues = new Set(checked.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
    expect([...issues]).toEqual(['translations.ar.body: Write the Arabic version’s message.']);
  });

  it('names languages in English for the console', () => {
    expect(namesOf(['es', 'pt-br', 'ar'])).toBe('Spanish, Brazilian Portuguese and Arabic');
    expect(languageName('zh-cn')).toBe('Simplified Chinese');
    expect(languageName('xx')).toBe('xx');
  });
});
