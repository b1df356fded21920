import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesFor } from '../../../../content/messages/catalog.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { siteContent } from '../../../../content/site-content.ts';
import { parseSiteContent } from '../../../shared/content-schema.ts';
import { locales } from '../../../shared/locales.ts';
import { escapeHtml } from '../../lib/escape-html.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';
import { groupedAddress, shortAddress } from './short-address.ts';
import { walletLinkEmail } from './wallet-link-composer.ts';

// Issue 38: where a person decides about a wallet (the wallet-link email's body and the page its
// link opens), the whole checksummed address, grouped by four, left to right in every language;
// the short form only in the subject. In all five locales, Arabic right to left around it.

// An address whose short form a look-alike can share: what matters is the middle.
const address = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const lookAlike = '0x5aAe0000000000000000000000000000000BeAed';
const content = parseSiteContent(siteContent);
const LRI = '\u2066';
const PDI = '\u2069';

describe('the wallet-link email and page name the whole address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('groups the checksummed address by four, from any case, and tells look-alikes apart', () => {
    expect(groupedAddress(address.toLowerCase())).toBe('0x5aAe b605 3F3E 94C9 b9A0 9f33 6694 35E7 Ef1B eAed');
    expect(shortAddress(lookAlike).toLowerCase()).toBe(shortAddress(address).toLowerCase());
    expect(groupedAddress(lookAlike)).not.toBe(groupedAddress(address));
  });

  for (const locale of locales) {
    const rtl = localeInfo[locale].dir === 'rtl';
    const whole = groupedAddress(address);

    it(`${locale}: the email shows it whole in the body (monospace, isolated left to right), short in the subject only`, () => {
      const words = messagesFor(locale).walletLink.email;
      const mail = walletLinkEmail({
        locale,
        content,
        to: 'hal@example.com',
        address,
        url: 'https://dh.example/wallet-link?token=t',
        unsubscribeUrl: 'https://dh.example/unsubscribe?x',
      });
      const short = shortAddress(address);
      expect(mail.subject).toContain(rtl ? `${LRI}${short}${PDI}` : short);
      const line = rtl ? `${LRI}${whole}${PDI}` : whole;
      expect(mail.text).toContain(`\n\n${line}\n\n${words.check}\n\n`);
      expect(mail.text).not.toContain(short);
      expect(mail.html).toContain(`<html lang="${localeInfo[locale].tag}" dir="${localeInfo[locale].dir}">`);
      expect(mail.html).toMatch(
        new RegExp(`<bdi dir="ltr"><span style="font-family:ui-monospace[^"]*">${whole}</span></bdi>`),
      );
      expect(mail.html).toContain(escapeHtml(words.check));
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/undefined|\$\{/);
    });

    it(`${locale}: the page shows it whole below its words, isolated left to right`, () => {
      const words = messagesFor(locale).walletLink.page;
      for (const notice of [
        { ...words.pending, wallet: whole },
        { ...words.linked, wallet: whole },
      ]) {
        const html = t.app.pages.in(locale).renderNotice(notice);
        expect(html).toContain(`dir="${localeInfo[locale].dir}"`);
        expect(html).toContain(
          `<p>${escapeHtml(notice.message)}</p><p class="notice-wallet"><bdi dir="ltr"><span class="wallet-address">${whole}</span></bdi></p>`,
        );
        expect(html).not.toContain(shortAddress(address));
      }
    });
  }
});
