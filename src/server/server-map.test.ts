import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadEnv } from './env.ts';
import { serverMap } from './server-map.ts';
import { memoryMailer, testGeo, testSiteBuild } from './test/built-app.ts';
import { openTestStore } from './test/test-store.ts';

const readme = path.resolve(import.meta.dirname, '../../README.md');
const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-map-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The code block under the README's "The server's map" heading. */
function readmeMap(): string {
  const text = readFileSync(readme, 'utf8');
  const section = text.slice(text.indexOf("## The server's map"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no code block under "## The server\'s map"');
  return block;
}

// The README's copy of the map is what a newcomer reads first; it drifted once (four locale route
// trees missing). Built as `npm run server-map` builds it: the default configuration.
it("README's server map is the app's, as npm run server-map prints it", async () => {
  const store = await openTestStore('sqlite');
  const app = await buildApp({
    env: loadEnv({ LOG_LEVEL: 'silent', OUTBOX_DIR: path.join(dir, 'outbox'), DATA_KEY: process.env.DATA_KEY }),
    build: await testSiteBuild(),
    store,
    geo: await testGeo(),
    mailer: memoryMailer(),
  });
  try {
    await app.ready();
    expect(
      readmeMap().trimEnd(),
      "README.md's server map differs from the app's: run `npm run server-map` and paste its output there",
    ).toBe(serverMap(app).trimEnd());
  } finally {
    await app.close();
    await store.destroy();
  }
});
