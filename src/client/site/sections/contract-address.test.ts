import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { content } from '../content.ts';
import { Faq } from './faq.tsx';
import { PresaleBanner } from './presale-banner.tsx';

const OFFICIAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('the official contract address on the page', () => {
  afterEach(() => {
    content.contractAddress = null;
  });

  it('is absent while the content file sets none (as shipped)', () => {
    expect(content.contractAddress).toBeNull();
    expect(renderToStaticMarkup(createElement(PresaleBanner, {}))).not.toContain('contract address');
    expect(renderToStaticMarkup(createElement(Faq))).not.toContain('The official contract address is');
  });

  it('once set, shows in the banner and in the FAQ answer about it, exactly as written (checksum case)', () => {
    content.contractAddress = OFFICIAL;
    expect(renderToStaticMarkup(createElement(PresaleBanner, {}))).toContain(
      `Official contract address: <code class="contract-address">${OFFICIAL}</code>`,
    );
    const faq = renderToStaticMarkup(createElement(Faq));
    expect(faq).toContain(`The official contract address is <code class="contract-address">${OFFICIAL}</code>`);
    expect(faq.match(/contract-address/g)).toHaveLength(1); // in the one answer that asks for it
  });
});
