import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { locales } from '../../../shared/locales.ts';
import { fillMimeTemplate } from '../mail/mime-template.ts';
import { broadcastEmail, broadcastEmails, renderBody } from './broadcast-render.ts';

// Every broadcast's footer carries, beside the unsubscribe link, the reader's own invite page (a
// signed link; docs/decisions/0060-referral-invites.md). The MIME body built once per version
// fills both per recipient, and is the same email broadcastEmail writes for them.

const unsubscribe = (n: number) => `https://dh.example/unsubscribe?id=id-${n}&sig=sig${'u'.repeat(40)}${n}`;
const invitePage = (n: number) => `https://dh.example/invite?id=id-${n}&sig=sig${'i'.repeat(40)}${n}`;

describe("a broadcast's footer", () => {
  it.each(locales)(
    'in %s: the unsubscribe link and the invite page, the same from the template as written alone',
    async (locale) => {
      const opts = {
        siteName: 'Diamond Hand (DH)',
        subject: 'News',
        body: renderBody('Hello **all** & <you>'),
        locale,
      };
      const many = broadcastEmails(opts);
      for (const n of [1, 2]) {
        const to = `p${n}@example.com`;
        const fromTemplate = many(to, unsubscribe(n), invitePage(n));
        const alone = broadcastEmail({ ...opts, to, unsubscribeUrl: unsubscribe(n), invitePageUrl: invitePage(n) });
        expect(fromTemplate.text).toBe(alone.text);
        expect(fromTemplate.html).toBe(alone.html);
        expect(fromTemplate.headers?.['List-Unsubscribe']).toBe(`<${unsubscribe(n)}>`);
        const words = messagesFor(locale);
        expect(alone.text).toContain(`${words.broadcastEmail.stop({ site: opts.siteName })}: ${unsubscribe(n)}\n`);
        expect(alone.text).toContain(`${words.referrals.pageLink}: ${invitePage(n)}`);
        expect(alone.html).toContain(`<a href="${unsubscribe(n).replaceAll('&', '&amp;')}" style="color:#24407f">`);
        expect(alone.html).toContain(
          `<a href="${invitePage(n).replaceAll('&', '&amp;')}" style="color:#24407f">${words.referrals.pageLink}</a>`,
        );
        // The MIME body filled per recipient reads back as that same email, with no other's links.
        const template = fromTemplate.template;
        if (!template) throw new Error('no template');
        const raw = fillMimeTemplate(
          template.mime,
          { from: 'a@dh.example', to, subject: 'News', headers: {} },
          template.link,
        );
        const parsed = await simpleParser(raw);
        expect(parsed.text?.trimEnd()).toBe(alone.text.trimEnd());
        expect(parsed.html).toBe(alone.html);
        expect(raw.toString()).not.toContain(`id-${3 - n}&`);
      }
    },
  );

  it('keeps a test send (no subscriber, no invite page) as it was', () => {
    const email = broadcastEmail({
      siteName: 'DH',
      subject: 's',
      body: renderBody('x'),
      to: 'a@example.com',
      unsubscribeUrl: unsubscribe(1),
    });
    expect(email.html).not.toContain('/invite?');
    expect(email.text.trimEnd().endsWith(unsubscribe(1))).toBe(true);
  });
});
