import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { supportedNode } from './node-version.mjs';

describe('the Node versions npm start and npm test accept', () => {
  it("takes package.json's engines (^22.22.2 || >=24.15.0) and nothing older", () => {
    for (const v of ['22.22.2', '22.23.0', '24.15.0', '24.21.0', '26.0.0']) expect(supportedNode(v), v).toBe(true);
    for (const v of ['18.20.0', '20.19.0', '20.20.2', '22.12.0', '22.22.1', '23.11.0', '24.14.9'])
      expect(supportedNode(v), v).toBe(false);
  });

  it('runs the tests on the Node that npm install pinned, not the machine’s', async () => {
    // package.json's devDependencies carry the registry's `node` package; npm puts its binary first
    // on every script's PATH. Dropping it would put the suite back on whatever the machine has.
    const pinned = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'node');
    const { stdout } = await promisify(execFile)(pinned, ['--version']);
    expect(process.version).toBe(stdout.trim());
    expect(supportedNode(process.versions.node)).toBe(true);
  });

  it('passes quietly on the Node running the tests', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      path.join(import.meta.dirname, 'node-version.mjs'),
    ]);
    expect(stdout + stderr).toBe('');
  });
});
