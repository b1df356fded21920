import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { siteContent } from '../content/site-content.ts';
import { parseSiteContent } from '../src/shared/content-schema.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

describe('the content file', () => {
  it('as shipped is valid', () => {
    expect(parseSiteContent(siteContent).name).toBe('Diamond Hand');
  });

  it('accepts a presale date with its offset and a link for when it opens', () => {
    const set = parseSiteContent({
      ...siteContent,
      presaleDate: '2026-12-01T20:00:00+02:00',
      presaleUrl: 'https://presale.example/dh',
    });
    expect(set.presaleDate).toBe('2026-12-01T20:00:00+02:00');
    expect(set.presaleUrl).toBe('https://presale.example/dh');
  });

  it.each([
    [{ ...siteContent, name: '   ' }, 'name: must not be empty'],
    [{ ...siteContent, presaleDate: 'soon' }, 'presaleDate: must be an ISO date-time with its UTC offset'],
    // A time without an offset means a different instant in every time zone: refused.
    [{ ...siteContent, presaleDate: '2026-12-01T18:00' }, 'presaleDate: must be an ISO date-time with its UTC offset'],
    [{ ...siteContent, presaleDate: '2026-12-01' }, 'presaleDate: must be an ISO date-time with its UTC offset'],
    [{ ...siteContent, presaleDate: '2026-02-30T18:00:00Z' }, 'presaleDate: must be an ISO date-time'],
    [
      { ...siteContent, presaleDate: '2026-12-01T18:00:00Z' },
      'presaleUrl: must be an https:// URL when presaleDate is set',
    ],
    [
      { ...siteContent, presaleDate: '2026-12-01T18:00:00Z', presaleUrl: 'http://presale.example/' },
      'presaleUrl: must start with https://',
    ],
    [
      { ...siteContent, wallet: { mode: 'open', chainId: 1 } },
      'wallet.mode: must be one of coming-soon, allowlist, closed',
    ],
    [{ ...siteContent, wallet: { mode: 'allowlist', chainId: 0 } }, 'wallet.chainId: must be a chain id of 1 or more'],
    [{ ...siteContent, wallet: { mode: 'allowlist', chainId: '1' } }, 'wallet.chainId: must be a chain id number'],
    // The old switch is gone: a file still carrying it is told so, not silently accepted.
    [{ ...siteContent, walletConnect: { enabled: false } }, 'walletConnect'],
    [{ ...siteContent, faq: [] }, 'faq: needs at least one question'],
    [{ ...siteContent, theme: { ...siteContent.theme, color: 'blue' } }, 'theme.color: must be a #rrggbb colour'],
    [{ ...siteContent, unknownField: 1 }, 'unknownField'],
  ])('rejects a bad field and names it (%#)', (bad, message) => {
    expect(() => parseSiteContent(bad)).toThrow(message);
  });

  it('stops the build check with every bad field named', async () => {
    const error = await run('npx', ['tsx', 'scripts/check-content.ts', 'scripts/fixtures/bad-site-content.ts'], {
      cwd: root,
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toContain('scripts/fixtures/bad-site-content.ts is not valid');
    expect(error?.stderr).toContain('ticker: must be 2–8 capital letters or digits');
    expect(error?.stderr).toContain('banner.year:');
    expect(error?.stderr).toContain('social.telegram.url: must start with https://');
    expect(error?.stderr).toContain('faq.0.question: must not be empty');
    expect(error?.stderr).toContain('presaleDate: must be an ISO date-time with its UTC offset');
    expect(error?.stderr).not.toMatch(/\n\s+at /); // words, not a stack trace
  });

  it('passes the build check for the shipped file', async () => {
    const { stdout } = await run('npx', ['tsx', 'scripts/check-content.ts'], { cwd: root });
    expect(stdout).toContain('content/site-content.ts is valid.');
  });
});
