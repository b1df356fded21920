// A site server in the test process, on the real production build, with a presale date in its
// content and a clock the test sets. The browser tests' main server runs the shipped content
// (no date: "Coming Soon") on the real clock; the countdown needs both changed, and production
// takes neither from outside, so the tests build the same site pieces the app does
// (src/server/app.ts: security headers, clock, pages, site) around their own content and
// clock, with the app's own plugins. No production setting exists for tests.
import path from 'node:path';
import Fastify from 'fastify';
import { siteContent } from '../content/site-content.ts';
import { clockPlugin } from '../src/server/plugins/core.ts';
import { securityHeadersFor, securityHeadersPlugin } from '../src/server/plugins/security-headers.ts';
import { pagesPlugin } from '../src/server/features/site/pages-plugin.ts';
import { loadSiteBuild } from '../src/server/features/site/site-build.ts';
import { siteFeature } from '../src/server/features/site/site-plugin.ts';
import { parseSiteContent } from '../src/shared/content-schema.ts';
import { apiPaths } from '../src/shared/paths.ts';
import { FastPaths } from '../src/server/lib/fast-paths.ts';

export interface CountdownServer {
  origin: string;
  /** Moves the server's clock (ms since the epoch). */
  setNow(ms: number): void;
  close(): Promise<void>;
}

export async function startCountdownServer(opts: {
  opensAt: string;
  url: string;
  now: number;
}): Promise<CountdownServer> {
  let now = opts.now;
  const build = await loadSiteBuild(path.resolve(import.meta.dirname, '../dist'));
  const content = parseSiteContent({ ...siteContent, presaleDate: opts.opensAt, presaleUrl: opts.url });
  // A test's server has nothing to drain: closing drops every connection, so a browser's open
  // keep-alive never holds up the next test.
  const app = Fastify({ forceCloseConnections: true });
  const headersFor = securityHeadersFor({
    styleHashes: build.styleHashes,
    scriptHashes: build.scriptHashes,
    publicUrl: 'http://127.0.0.1',
  });
  await app.register(securityHeadersPlugin, { headersFor });
  // The page's own calls, answered as the real server answers them when there is nothing to do;
  // these tests look at the countdown, not at cookies or visits.
  app.get(apiPaths.csrf, (_request, reply) => reply.code(204).send());
  app.post(apiPaths.visit, (_request, reply) => reply.code(204).send());
  await app.register(clockPlugin, { clock: () => new Date(now) });
  await app.register(pagesPlugin, { build, content, publicUrl: 'http://127.0.0.1' });
  // Its fast paths are never started: Fastify answers every page, with the clock the test moves.
  await app.register(siteFeature, { build, fastPaths: new FastPaths(), headersFor });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    origin: address,
    setNow(ms) {
      now = ms;
    },
    close: () => app.close(),
  };
}
