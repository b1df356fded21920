import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { realSiteBuild } from '../../test/built-app.ts';

// What the client build puts where (docs/decisions/0010-page-islands.md): the loader that runs
// before a visitor acts carries no React, no zod and no HTTP helper, and imports nothing at load;
// zod/mini and the helper arrive only with the form's island.
let scripts: Map<string, string>;
let assets: string;
beforeAll(async () => {
  const build = await realSiteBuild();
  assets = path.join(build.clientDir, 'assets');
  scripts = new Map(
    readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => [f, readFileSync(path.join(assets, f), 'utf8')]),
  );
});

const holding = (marker: string) => [...scripts].filter(([, code]) => code.includes(marker)).map(([name]) => name);
const chunk = (name: string) => new RegExp(`^${name}-[\\w-]+\\.js$`);

describe('the client build', () => {
  it('has a loader with no static import, so nothing else runs with it', () => {
    const loader = holding('data-island');
    expect(loader).toHaveLength(1);
    expect(loader[0]).toMatch(chunk('entry-client'));
    expect(scripts.get(loader[0] ?? '')).not.toMatch(/\bimport\s*[{*\w][^(]*?from\s*["']/);
  });

  it('keeps React in the chunk the React islands share', () => {
    const react = holding('react.dev/errors');
    expect(react.length).toBeGreaterThan(0);
    for (const name of react) expect(name).toMatch(chunk('hydrate'));
  });

  it('keeps zod/mini and the HTTP helper in the form island only', () => {
    expect(holding('_zod')).toEqual([expect.stringMatching(chunk('signup-island'))]);
    expect(holding('apiSend takes a relative URL')).toEqual([expect.stringMatching(chunk('signup-island'))]);
  });

  it('loads the allowlist connect in at most 8 KB brotli, with no React, no zod, and no call that moves funds', () => {
    const [island] = holding('eip6963:requestProvider');
    expect(island).toMatch(chunk('allowlist-island'));
    const code = scripts.get(island ?? '') ?? '';
    // What it loads with it: its own chunk and the chunks it imports, less the loader (already there).
    const imported = [...code.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1] ?? '');
    const loaded = [island ?? '', ...imported.filter((f) => !chunk('entry-client').test(f))];
    const brotli = loaded.reduce((sum, f) => sum + statSync(path.join(assets, `${f}.br`)).size, 0);
    expect(brotli).toBeLessThanOrEqual(8 * 1024);
    for (const f of loaded) {
      const text = scripts.get(f) ?? '';
      expect(text).not.toContain('react.dev/errors');
      expect(text).not.toContain('_zod');
      // The page never asks a wallet for a transaction, a raw signature or typed data (permits).
      expect(text).not.toMatch(/eth_sendTransaction|eth_sign"|eth_sign`|eth_signTypedData|approve/);
    }
  });

  it('ships none of the content file as JavaScript', () => {
    expect(holding('HODL')).toEqual([]);
  });
});
