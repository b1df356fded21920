// A broadcast per locale (issue 19, decision 0048), through the console's routes and the app's own
// outbox worker into a real SMTP server, on SQLite and on PostgreSQL: each subscriber gets the
// version of the locale they signed up in (or English where English falls back), exactly once;
// the address guard reads every version; an approval covers every version; a test send can be
// asked for any locale.
import { locales, translatedLocales } from '../../../shared/locales.ts';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { adminApiPaths, withId } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { insertSubscriber } from '../../test/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { dialectCases, openTestStore, type TestStore } from '../../test/test-store.ts';
import { ConsoleClient, makeOperator } from '../../test/admin-kit.ts';
import { unspokenLocale } from '../../test/locales-kit.ts';
import { namesOf } from '../../../shared/admin/locale-names.ts';
import { textHash } from './broadcast-text.ts';

const ENGLISH = { subject: 'The presale is near', body: 'Hello **holders**. The presale opens soon.' };
const SPANISH = { subject: 'La preventa está cerca', body: 'Hola, **holders**. La preventa abre pronto.' };
const ARABIC = { subject: 'البيع المسبق قريب', body: 'مرحبًا. يبدأ البيع المسبق قريبًا.' };
const FOREIGN = 'Send ETH to 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359 now.';

for (const { dialect, skip, label } of dialectCases) {
  describe.skipIf(skip)(`a broadcast per locale on ${label}`, () => {
    let store: TestStore;
    let sink: SmtpSink;
    let t: TestApp;
    let c: ConsoleClient;
    let checker: ConsoleClient;
    let n = 0;

    beforeAll(async () => {
      store = await openTestStore(dialect);
      sink = await startSmtpSink();
      t = await buildTestApp({ store, env: { SMTP_URL: sink.url, MAIL_RATE_PER_SEC: '1000' }, mailer: 'from-env' });
    });
    afterAll(async () => {
      await t?.close();
      await sink?.close();
      await store?.destroy();
    });
    beforeEach(async () => {
      n += 1;
      await store.db.deleteFrom('outbox').execute();
      await store.db.deleteFrom('subscribers').execute();
      sink.messages.length = 0;
      c = new ConsoleClient(t.app);
      await c.signIn(await makeOperator(store.db, `loc${n}-${dialect}@example.com`, t.clock()), t.clock());
      checker = new ConsoleClient(t.app);
      await checker.signIn(
        await makeOperator(store.db, `loc${n}-checker-${dialect}@example.com`, t.clock(), 'sender'),
        t.clock(),
      );
    });

    /** A confirmed subscriber who signed up in `locale`. */
    const subscriber = async (email: string, locale: string) => {
      const id = await insertSubscriber(store.db, email, { status: 'confirmed', now: t.clock() });
      await store.db.updateTable('subscribers').set({ locale }).where('id', '=', id).execute();
      return id;
    };
    const create = async (draft: object) => {
      const res = await c.post(adminApiPaths.broadcasts, draft);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: string; textHash: string; refusal: string | null };
    };
    const approve = async (id: string) => {
      const { textHash: hash } = (await c.get(withId(adminApiPaths.broadcast, id))).json();
      const res = await checker.post(withId(adminApiPaths.broadcastApprove, id), { textHash: hash });
      expect(res.statusCode, res.body).toBe(200);
    };
    const to = (m: (typeof sink.messages)[number]) => (m.to && 'text' in m.to ? m.to.text : '');

    it('sends each subscriber the version of their locale, English where English falls back, each exactly once', async () => {
      await subscriber(`en-${n}@example.com`, 'en');
      await subscriber(`es-${n}@example.com`, 'es');
      await subscriber(`ar-${n}@example.com`, 'ar');
      const { id } = await create({ ...ENGLISH, translations: { es: SPANISH }, englishFallback: true });
      await approve(id);
      const sent = await c.post(withId(adminApiPaths.broadcastSend, id));
      expect(sent.statusCode, sent.body).toBe(200);
      for (let i = 0; i < 5 && sink.messages.length < 3; i++) await t.app.jobs.runOnce('outbox');
      await sink.waitFor(3);
      // Nothing more comes: the rows are all marked.
      await t.app.jobs.runOnce('outbox');
      expect(sink.messages.map(to).sort()).toEqual(
        [`ar-${n}@example.com`, `en-${n}@example.com`, `es-${n}@example.com`].sort(),
      );
      const mailTo = (who: string) => sink.messages.find((m) => to(m) === who);
      const es = mailTo(`es-${n}@example.com`);
      expect(es?.subject).toBe(SPANISH.subject);
      expect(es?.html).toContain('<html lang="es" dir="ltr">');
      expect(es?.text).toContain('Hola, holders.');
      // The unsubscribe page in their own language (decision 0050).
      expect(es?.text).toMatch(/Dejar de recibir correos de Diamond Hand: https:\/\/dh\.example\/es\/unsubscribe\?id=/);
      // Arabic has no version of its own: English, in English's lang and direction and footer.
      const ar = mailTo(`ar-${n}@example.com`);
      expect(ar?.subject).toBe(ENGLISH.subject);
      expect(ar?.html).toContain('<html lang="en" dir="ltr">');
      // English words, but the page its link opens is in their language, which every page is in.
      expect(ar?.text).toMatch(/Stop all emails from Diamond Hand: https:\/\/dh\.example\/ar\/unsubscribe\?id=/);
      expect(mailTo(`en-${n}@example.com`)?.subject).toBe(ENGLISH.subject);
      const rows = await store.db.selectFrom('outbox').select('status').where('broadcast_id', '=', id).execute();
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
      const log = await store.db
        .selectFrom('audit_log')
        .select('detail')
        .where('subject', '=', id)
        .where('action', '=', 'broadcast.sent')
        .executeTakeFirstOrThrow();
      expect(log.detail).toContain(
        `versions en, es; English for ${translatedLocales.filter((l) => l !== 'es').join(', ')}`,
      );
      expect(log.detail).toMatch(
        /^to 3 confirmed subscribers, .*; recipients by locale (?=.*en 1)(?=.*es 1)(?=.*ar 1)/,
      );
    });

    it('refuses a foreign address in any version, naming the version', async () => {
      for (const locale of translatedLocales) {
        const { id, refusal } = await create({
          ...ENGLISH,
          translations: { [locale]: { subject: 'Hola', body: FOREIGN } },
        });
        expect(refusal, locale).toMatch(/^The [A-Za-z ]+ version: /);
        expect(refusal).toContain('0xfB69');
        const sent = await c.post(withId(adminApiPaths.broadcastSend, id));
        expect(sent.statusCode, locale).toBe(422);
        // A test send of the English version is not the foreign one; the one asked for is refused.
        const test = await c.post(withId(adminApiPaths.broadcastTest, id), { locale });
        expect(test.statusCode, locale).toBe(422);
      }
      expect(sink.messages).toHaveLength(0);
      expect(await store.db.selectFrom('outbox').select('id').execute()).toEqual([]);
    });

    it('answers a malformed version in words, naming where it is', async () => {
      const wrong = async (draft: object) => {
        const res = await c.post(adminApiPaths.broadcasts, draft);
        expect(res.statusCode, res.body).toBe(400);
        return res.json().error.fields as Record<string, string>;
      };
      expect(await wrong({ ...ENGLISH, translations: { [unspokenLocale]: SPANISH } })).toEqual({
        translations: `Versions are written for ${translatedLocales.join(', ')} only, each with a subject and a message.`,
      });
      // A reply names a field by its top-level key, so the words name the version.
      expect(await wrong({ ...ENGLISH, translations: { es: { subject: 'Hola', body: ' ' } } })).toEqual({
        translations: 'Write the Spanish version’s message.',
      });
      expect(await wrong({ ...ENGLISH, translations: { ar: { ...ARABIC, from: 'x' } } })).toEqual({
        translations: 'The Arabic version has a subject and a message, and nothing else.',
      });
      expect(await wrong({ ...ENGLISH, englishFallback: 'yes' })).toEqual({
        englishFallback: 'Say whether English goes to the other locales (true or false).',
      });
    });

    it('refuses a send that leaves a locale without a version when English is not the fallback', async () => {
      await subscriber(`pt-${n}@example.com`, 'pt-br');
      const { id, refusal } = await create({ ...ENGLISH, translations: { es: SPANISH }, englishFallback: false });
      // Every locale but English and Spanish, by its English name, in the registry's order.
      const unwritten = namesOf(translatedLocales.filter((l) => l !== 'es'));
      expect(refusal).toBe(
        `There is no ${unwritten} version, and English is not set to go to the locales without one: write them, or let English go to the rest.`,
      );
      await approve(id);
      expect((await c.post(withId(adminApiPaths.broadcastSend, id))).statusCode).toBe(422);
      expect((await c.post(withId(adminApiPaths.broadcastTest, id), { locale: 'pt-br' })).statusCode).toBe(422);
    });

    it('voids an approval when a version other than English changes, or the fallback does', async () => {
      await subscriber(`es-${n}@example.com`, 'es');
      const draft = { ...ENGLISH, translations: { es: SPANISH } };
      const { id } = await create(draft);
      await approve(id);
      const edited = await c.post(withId(adminApiPaths.broadcast, id), {
        ...draft,
        translations: { es: { ...SPANISH, body: `${SPANISH.body} ¡Pronto!` } },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().approval).toBeNull();
      expect(edited.json().lapsedApproval.reason).toBe('edit');
      const refused = await c.post(withId(adminApiPaths.broadcastSend, id));
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.message).toMatch(/nobody has approved it/);

      // Approved again, then only the fallback turned off (all the same text): void again.
      await approve(id);
      const fallbackOff = await c.post(withId(adminApiPaths.broadcast, id), {
        ...draft,
        translations: { es: { ...SPANISH, body: `${SPANISH.body} ¡Pronto!` } },
        englishFallback: false,
      });
      expect(fallbackOff.json().approval).toBeNull();
      // An approval read for another set of versions is refused.
      const stale = await checker.post(withId(adminApiPaths.broadcastApprove, id), {
        textHash: textHash({ ...draft }),
      });
      expect(stale.statusCode).toBe(409);
      expect(sink.messages).toHaveLength(0);
    });

    it('sends a test of the version any locale gets, in its language and direction', async () => {
      const { id } = await create({ ...ENGLISH, translations: { es: SPANISH, ar: ARABIC } });
      const ar = await c.post(withId(adminApiPaths.broadcastTest, id), { locale: 'ar' });
      expect(ar.statusCode, ar.body).toBe(200);
      expect(ar.json()).toMatchObject({ locale: 'ar', versionLocale: 'ar' });
      const zh = await c.post(withId(adminApiPaths.broadcastTest, id), { locale: 'zh-cn' });
      expect(zh.json()).toMatchObject({ locale: 'zh-cn', versionLocale: 'en' });
      const bad = await c.post(withId(adminApiPaths.broadcastTest, id), { locale: unspokenLocale });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.locale).toContain(`locale must be one of ${locales.join(', ')}`);
      await sink.waitFor(2);
      const [arabic, chinese] = sink.messages;
      expect(arabic?.subject).toBe(`[Test] ${ARABIC.subject}`);
      expect(arabic?.html).toContain('<html lang="ar" dir="rtl">');
      expect(arabic?.text).toContain('إيقاف جميع الرسائل من Diamond Hand');
      // The note to the operator stays English (the console's language), marked as such.
      expect(arabic?.html).toContain('<p dir="ltr" lang="en"');
      expect(chinese?.subject).toBe(`[Test] ${ENGLISH.subject}`);
      const preview = await c.get(`${withId(adminApiPaths.broadcastPreview, id)}?locale=es`);
      expect(preview.json()).toMatchObject({ locale: 'es', versionLocale: 'es', subject: SPANISH.subject });
      const audit = await store.db
        .selectFrom('audit_log')
        .select('detail')
        .where('subject', '=', id)
        .where('action', '=', 'broadcast.test-sent')
        .orderBy('seq')
        .execute();
      expect(audit.map((a) => a.detail)).toEqual(['the ar version', 'for zh-cn: the en version']);
    });

    it('sends a broadcast written and approved before migration 0021 as it was: English to everyone', async () => {
      await subscriber(`es-${n}@example.com`, 'es');
      await subscriber(`en-${n}@example.com`, 'en');
      const id = `pre-0021-${n}`;
      const at = t.clock().toISOString();
      const approver = `loc${n}-checker-${dialect}@example.com`;
      const author = `loc${n}-${dialect}@example.com`;
      const oldHash = createHash('sha256')
        .update(JSON.stringify([ENGLISH.subject, ENGLISH.body]))
        .digest('hex');
      // The columns an older build wrote; the new two take their defaults, as on a migrated row.
      await sql`insert into broadcasts (id, subject, body, status, created_by, created_at, updated_at, updated_by, approved_by, approved_at, approved_hash)
        values (${id}, ${ENGLISH.subject}, ${ENGLISH.body}, 'draft', ${author}, ${at}, ${at}, ${author}, ${approver}, ${at}, ${oldHash})`.execute(
        store.db,
      );
      const shown = (await c.get(withId(adminApiPaths.broadcast, id))).json();
      expect(shown).toMatchObject({ translations: {}, englishFallback: true, textHash: oldHash, refusal: null });
      expect(shown.approval?.by).toBe(approver);
      const sent = await c.post(withId(adminApiPaths.broadcastSend, id));
      expect(sent.statusCode, sent.body).toBe(200);
      for (let i = 0; i < 5 && sink.messages.length < 2; i++) await t.app.jobs.runOnce('outbox');
      await sink.waitFor(2);
      expect(sink.messages.map((m) => m.subject)).toEqual([ENGLISH.subject, ENGLISH.subject]);
      expect(sink.messages.every((m) => m.html && m.html.includes('<html lang="en" dir="ltr">'))).toBe(true);
    });

    it('keeps an English-only broadcast, and an approval of it, as they were before versions', async () => {
      // Rows written before migration 0021 hash as they did, so an approval given then still holds.
      const old = createHash('sha256')
        .update(JSON.stringify([ENGLISH.subject, ENGLISH.body]))
        .digest('hex');
      expect(textHash(ENGLISH)).toBe(old);
      expect(textHash({ ...ENGLISH, translations: {}, englishFallback: true })).toBe(old);
      expect(textHash({ ...ENGLISH, englishFallback: false })).not.toBe(old);
      const { textHash: stored } = await create(ENGLISH);
      expect(stored).toBe(old);
    });
  });
}
