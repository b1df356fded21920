import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiError } from '../../../shared/api-error.ts';
import { consoleDocumentPaths } from '../../../shared/admin/console-views.ts';
import { adminPaths } from '../../../shared/paths.ts';
import { escapeHtml } from '../../lib/escape-html.ts';

// The console's HTML shell and files. The console is its own Vite build (vite.admin.config.ts →
// dist/admin), so none of its code, words or styles can reach the public page's bundle; its shell
// loads one script and one stylesheet from our origin, so the site's strict CSP (no inline code)
// fits it unchanged.

export const CONSOLE_ENTRY = 'src/client/admin/entry.tsx';
const YEAR = 365 * 24 * 60 * 60;

interface ManifestChunk {
  file: string;
  css?: string[];
}

interface ConsoleBuild {
  dir: string;
  script: string;
  styles: string[];
}

function loadConsoleBuild(distDir: string): ConsoleBuild | null {
  const dir = path.join(distDir, 'admin');
  const manifestFile = path.join(dir, '.vite/manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest[CONSOLE_ENTRY];
  if (!entry) throw new Error(`The console build in ${dir} lacks ${CONSOLE_ENTRY}; run \`npm run build\`.`);
  return { dir, script: entry.file, styles: entry.css ?? [] };
}

function consoleShell(build: ConsoleBuild, siteName: string): string {
  const asset = (file: string) => escapeHtml(`${adminPaths.assets}${file.replace(/^assets\//, '')}`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(`Console · ${siteName}`)}</title>`,
    ...build.styles.map((f) => `<link rel="stylesheet" href="${asset(f)}">`),
    `<script type="module" src="${asset(build.script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="console"><noscript>The console needs JavaScript.</noscript></div>',
    '</body>',
    '</html>',
  ].join('');
}

/**
 * GET /admin and each console view: the shell (never cached: it names the current build's files,
 * and a console page should not sit in a shared cache); /admin/assets/*: the hashed files.
 */
export async function registerConsolePages(
  app: FastifyInstance,
  opts: { distDir: string; siteName: string },
): Promise<void> {
  const build = loadConsoleBuild(opts.distDir);
  const html = build ? consoleShell(build, opts.siteName) : null;
  for (const view of consoleDocumentPaths) {
    app.get(view, async (_request, reply) => {
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow');
      if (!html)
        return reply.code(503).send(apiError('unavailable', 'The console has not been built: run `npm run build`.'));
      return reply.type('text/html; charset=utf-8').send(html);
    });
  }
  if (build) {
    await app.register(fastifyStatic, {
      root: path.join(build.dir, 'assets'),
      prefix: adminPaths.assets,
      decorateReply: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      dotfiles: 'ignore',
      setHeaders: (res) => {
        res.header('cache-control', `private, max-age=${YEAR}, immutable`);
        res.header('x-robots-tag', 'noindex, nofollow');
      },
    });
  }
}
