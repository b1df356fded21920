// `npm run build`: content check → client bundle → SSR bundle → server bundle → images →
// precompressed copies. Each step stops the build with a readable message when it fails.
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { checkContentFile } from './check-content.ts';
import { makeImages } from './make-images.ts';
import { errorText } from '../src/server/lib/log-safe.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const compressible = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|html)$/;

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

function precompress(dir: string): number {
  let count = 0;
  for (const file of walk(dir)) {
    if (!compressible.test(file) || statSync(file).size < 512) continue;
    const data = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    count++;
  }
  return count;
}

/** Copies images and other files the server's HTML names from the SSR build into the client's. */
function copyServerOnlyAssets(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    // The stylesheet is inlined by the server from the client build; code never leaves dist/ssr.
    if (/\.(js|mjs|css|map)$/.test(name) || existsSync(path.join(to, name))) continue;
    copyFileSync(path.join(from, name), path.join(to, name));
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const content = await checkContentFile(path.join(root, 'content/site-content.ts'));

  // vite.config.ts reads the content file, whose translations are read from the locales' folders
  // by the registry (content/messages/site-words.ts): Vite's module runner resolves those imports
  // where the files are, which a config bundled into a temporary file cannot.
  await viteBuild({ root, logLevel: 'warn', configLoader: 'runner' });
  await viteBuild({
    root,
    logLevel: 'warn',
    configLoader: 'runner',
    build: {
      ssr: true,
      outDir: path.join(dist, 'ssr'),
      emptyOutDir: true,
      manifest: false,
      // Most of the page is rendered only on the server now (docs/decisions/0010-page-islands.md):
      // a file it links to (an image imported by URL) is imported by no browser code, so the
      // client build would not emit it. The SSR build emits such files, with the very names its
      // HTML uses, and they are copied next to the client's assets below. (Our own SVG art is
      // written into the HTML instead; see sections/inline-svg.tsx.)
      ssrEmitAssets: true,
      rollupOptions: {
        input: path.join(root, 'src/client/site/entry-server.tsx'),
        output: { entryFileNames: 'entry-server.js' },
      },
    },
  });
  copyServerOnlyAssets(path.join(dist, 'ssr/assets'), path.join(dist, 'client/assets'));

  // The operators' console: its own build, so none of it can reach the public page's bundle.
  await viteBuild({ root, logLevel: 'warn', configFile: path.join(root, 'vite.admin.config.ts') });

  // The server and the operator's commands are bundled alike: ESM for Node, packages left to
  // node_modules.
  const forNode = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  } as const;
  await esbuild({
    ...forNode,
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile: path.join(dist, 'server/main.js'),
  });
  // The operator's commands, bundled like the server so they run where it runs (the Docker
  // image has no tsx, nor any development dependency): `node dist/scripts/operator.js list`.
  await esbuild({
    ...forNode,
    entryPoints: ['operator', 'audit-verify', 'db-migrate'].map((name) => path.join(root, `scripts/${name}.ts`)),
    outdir: path.join(dist, 'scripts'),
  });

  makeImages(content, path.join(root, 'src/client/site/assets'), path.join(dist, 'client'));
  const compressed = precompress(path.join(dist, 'client')) + precompress(path.join(dist, 'admin'));
  console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s (${compressed} files precompressed).`);
}

main().catch((error: unknown) => {
  console.error(`\nBuild failed: ${errorText(error)}`);
  process.exit(1);
});
