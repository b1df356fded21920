import { SiweMessage } from 'siwe';
import { verifyMessage } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { locales, type Locale } from '../../../shared/locales.ts';
import { testAccount, type TestAccount } from '../../test/test-account.ts';
import { joinStatement, siweSite, writeMessage, type Declaration } from './siwe-message.ts';

// The message a wallet signs to join, with its declaration (decision 0068), read by the two
// libraries wallets and dapps build on: the reference `siwe` parser, which follows EIP-4361's
// grammar to the letter, and viem's. Ours is written by ox; what one of them refuses, a wallet
// built on it would refuse too, or show without its Sign-In with Ethereum checks.
const site = siweSite('https://dh.example', 1);
const declaration: Declaration = { version: '2026-12-07', restrictedCountries: ['US', 'CU', 'KP', 'IR', 'CI'] };
// Côte d’Ivoire: a name with letters EIP-4361's grammar does not take, which the statement folds.
const now = new Date('2026-12-07T11:00:00.000Z');
const later = new Date('2026-12-07T11:01:00.000Z');
/** The message a wallet is asked to sign to join, as the server writes it for `locale`. */
const joinMessage = (wallet: TestAccount, locale: Locale) =>
  writeMessage(site, { address: wallet.address, purpose: 'join', nonce: 'a1B2c3D4e5F6g7H8', now, declaration, locale });

describe('the signed declaration, read by siwe and viem', () => {
  for (const locale of locales)
    it(`parses and verifies in both, naming the countries and the terms page (${locale})`, async () => {
      const wallet = testAccount();
      const text = joinMessage(wallet, locale);
      const signature = wallet.sign(text);
      const terms = locale === 'en' ? 'https://dh.example/terms' : `https://dh.example/${locale}/terms`;

      const message = new SiweMessage(text);
      expect(message.statement).toBe(joinStatement(declaration));
      expect(message.statement).toMatch(/version 2026-12-07.*United States \(US\).*Cuba \(CU\)/);
      expect(message.resources).toEqual([terms]);
      const checked = await message.verify({ signature, time: later.toISOString(), domain: site.domain });
      expect(checked.success).toBe(true);
      expect(checked.data.address).toBe(wallet.address);

      const parsed = parseSiweMessage(text);
      expect(parsed.statement).toBe(joinStatement(declaration));
      expect(parsed.resources).toEqual([terms]);
      expect(validateSiweMessage({ message: parsed, time: later, domain: site.domain, address: wallet.address })).toBe(
        true,
      );
      expect(await verifyMessage({ address: wallet.address, message: text, signature })).toBe(true);
      // A signature over another declaration is not this one's.
      const edited = text.replace('Cuba (CU)', 'Chad (TD)');
      expect(await verifyMessage({ address: wallet.address, message: edited, signature })).toBe(false);
    });

  it('is why the statement stays English: siwe refuses one in another script', () => {
    const text = joinMessage(testAccount(), 'ar').replace(joinStatement(declaration), 'أقبل شروط البيع المسبق');
    expect(() => new SiweMessage(text)).toThrow();
    // viem reads it all the same: the stricter reader decides what a wallet may be shown.
    expect(parseSiweMessage(text).statement).toBe('أقبل شروط البيع المسبق');
  });
});
