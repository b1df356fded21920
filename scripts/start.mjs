// `npm start`: serve the production build, building first when there is none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { nodeAdvice, supportedNode } from './node-version.mjs';

if (!supportedNode(process.versions.node)) {
  console.error(`This is Node ${process.versions.node}. ${nodeAdvice}`);
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, '..');
const needed = ['dist/server/main.js', 'dist/ssr/entry-server.js', 'dist/client/.vite/manifest.json'];
if (!needed.every((f) => existsSync(path.join(root, f)))) {
  console.log('No build found; building first (npm run build)...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// `npm start` is the fresh clone's command: without NODE_ENV it runs as development, where a data
// key is made in data/dh.data-key when none is configured. Deployments set NODE_ENV=production
// (the Dockerfile and the systemd unit do), and then DATA_KEY is required (docs/deploy.md, "Keys").
process.env.NODE_ENV ||= 'development';
await import('../dist/server/main.js');
