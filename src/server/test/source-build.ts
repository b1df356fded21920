import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONSOLE_ENTRY } from '../features/console/console-page.ts';
import { siteBuildOf, type SiteBuild, type SsrModule } from '../features/site/site-build.ts';

// Server tests render the page from source, as they run, instead of loading `npm run build`'s
// output: editing a section shows in the next server test with no build in between, and a clean
// clone runs them before any build (decision 0034). Vitest transforms the client's TSX, and its
// `?raw` imports, the way Vite's SSR build does. What the browser would load (the islands'
// bundles, the console's app) is not what these tests are about: a small folder stands in for
// them, with files under the names the shells and the loader point at. The tests that are about
// the built files read dist/ (realSiteBuild in built-app.ts).

const root = path.resolve(import.meta.dirname, '../../..');

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
};

export async function sourceSiteBuild(): Promise<SiteBuild> {
  const distDir = mkdtempSync(path.join(os.tmpdir(), 'dh-test-dist-'));
  const clientDir = path.join(distDir, 'client');
  // The loader's two scripts, and the console's shell files, as stand-ins that do nothing.
  write(path.join(clientDir, 'assets/entry-client-test.js'), "// stands in for the islands' loader in server tests\n");
  write(path.join(clientDir, 'assets/beacon-test.js'), '// stands in for the beacon in server tests\n');
  write(path.join(distDir, 'admin/assets/console-test.js'), '// stands in for the console in server tests\n');
  write(
    path.join(distDir, 'admin/assets/console-test.css'),
    "/* stands in for the console's styles in server tests */\n",
  );
  write(
    path.join(distDir, 'admin/.vite/manifest.json'),
    JSON.stringify({
      [CONSOLE_ENTRY]: { file: 'assets/console-test.js', css: ['assets/console-test.css'], isEntry: true },
    }),
  );
  // Imported by path, not by name: server code never imports the client's (eslint.config.js);
  // this is the test's stand-in for dist/ssr/entry-server.js, which is that file built.
  const ssr = (await import(pathToFileURL(path.join(root, 'src/client/site/entry-server.tsx')).href)) as SsrModule;
  const css = readFileSync(path.join(root, 'src/client/site/styles.css'), 'utf8');
  return siteBuildOf({
    distDir,
    clientDir,
    ssr,
    css,
    scripts: ['/assets/entry-client-test.js', '/assets/beacon-test.js'],
  });
}
