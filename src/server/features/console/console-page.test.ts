import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleViewPath } from '../../../shared/admin/console-views.ts';
import { adminPaths } from '../../../shared/paths.ts';
import { buildTestApp, type TestApp } from '../../test/built-app.ts';

const dist = path.resolve(import.meta.dirname, '../../../../dist');
// Words, a class name, the root marker and the chart library's class (code and CSS) that only the console has.
const CONSOLE_ONLY = ['dh-operators-console', 'Sign in to the console', 'Sign out everywhere', 'cs-dialog', 'u-over'];

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(full);
    else if (/\.(js|css|html|json)$/.test(e.name)) yield full;
  }
}

describe('the console is its own build', () => {
  it('nothing of it is in the public page: code, words or styles', async () => {
    const t = await buildTestApp();
    try {
      const publicTexts = [...files(path.join(dist, 'client')), ...files(path.join(dist, 'ssr'))].map((f) =>
        readFileSync(f, 'utf8'),
      );
      for (const doc of ['/', '/privacy']) publicTexts.push((await t.app.inject({ method: 'GET', url: doc })).body);
      const consoleText = [...files(path.join(dist, 'admin'))].map((f) => readFileSync(f, 'utf8')).join('\n');
      for (const marker of CONSOLE_ONLY) {
        expect(consoleText, `the console build has "${marker}"`).toContain(marker);
        expect(
          publicTexts.some((text) => text.includes(marker)),
          `the public build has "${marker}"`,
        ).toBe(false);
      }
    } finally {
      await t.close();
    }
  });
});

describe('GET /admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves the shell for each view: never cached, not indexed, under the strict CSP', async () => {
    for (const view of [
      adminPaths.home,
      consoleViewPath('sessions'),
      consoleViewPath('audit'),
      consoleViewPath('subscribers'),
    ]) {
      const res = await t.app.inject({ method: 'GET', url: view });
      expect(res.statusCode, view).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-robots-tag']).toMatch(/noindex/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(res.body).toMatch(/<meta name="robots" content="noindex, nofollow">/);
      // Only files from our origin: no inline script or style to allow.
      expect(res.body).not.toMatch(/<script>|<style/);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('serves its hashed files for a year, and 404s for views it does not have', async () => {
    const shell = (await t.app.inject({ method: 'GET', url: adminPaths.home })).body;
    const script = /src="([^"]+\.js)"/.exec(shell)?.[1] ?? '';
    const style = /href="([^"]+\.css)"/.exec(shell)?.[1] ?? '';
    expect(script.startsWith(adminPaths.assets)).toBe(true);
    for (const file of [script, style]) {
      const res = await t.app.inject({ method: 'GET', url: file });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['cache-control']).toMatch(/max-age=31536000, immutable/);
    }
    expect((await t.app.inject({ method: 'GET', url: `${adminPaths.assets}nope.js` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/nope', headers: { accept: 'text/html' } })).statusCode,
    ).toBe(404);
  });
});
