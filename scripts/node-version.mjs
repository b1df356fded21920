// The Node versions the product runs on, checked before `npm start` and `npm test` do anything:
// better-sqlite3 13 (the SQLite store) needs Node 22 and crashes an older one with a segmentation
// fault rather than an error, and better-sqlite3 12, which ran on Node 20, aborts Node 24 when V8
// collects a statement (decision 0058). Kept in step with package.json's "engines". Through npm the
// scripts always run on the Node pinned in devDependencies (decision 0064); this stops a script
// started with the machine's own node directly.
import { fileURLToPath } from 'node:url';

/** Whether `version` (as process.versions.node gives it) is one this product runs on. */
export function supportedNode(version) {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (major === 22) return minor > 22 || (minor === 22 && patch >= 2);
  if (major === 24) return minor >= 15;
  return major > 24;
}

export const nodeAdvice =
  'Diamond Hand needs Node 22.22.2 or newer, or 24.15 or newer. ' +
  'Run it through npm (`npm install`, then `npm start` or `npm test`): npm brings Node 24 LTS from the registry as a dev dependency and runs every script on it.';

if (process.argv[1] === fileURLToPath(import.meta.url) && !supportedNode(process.versions.node)) {
  console.error(`This is Node ${process.versions.node}. ${nodeAdvice}`);
  process.exit(1);
}
