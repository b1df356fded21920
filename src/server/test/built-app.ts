import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { hasSiteBuild, loadSiteBuild, type SiteBuild } from '../site/site-build.ts';

// Server tests build the real app on the real production build (npm test builds first).
const distDir = path.resolve(import.meta.dirname, '../../../dist');
let cached: Promise<SiteBuild> | undefined;

export function testSiteBuild(): Promise<SiteBuild> {
  if (!hasSiteBuild(distDir)) throw new Error('No build in dist/: run `npm run build` before the server tests.');
  cached ??= loadSiteBuild(distDir);
  return cached;
}

export async function buildTestApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp({
    env: loadEnv({ LOG_LEVEL: 'silent', PUBLIC_URL: 'https://dh.example', ...env }),
    build: await testSiteBuild(),
    clock: () => new Date('2026-11-21T12:00:00Z'),
  });
}
