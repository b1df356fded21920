import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A small disk that a test can fill and empty: a tmpfs mounted on a fresh folder. Mounting needs
// root (or CAP_SYS_ADMIN); where it cannot be had, `mounted` says why, in words a skip can carry.

export interface SmallDisk {
  dir: string;
  /** True once mounted, or why it could not be. */
  mounted: true | string;
  /** Takes all the space but `leaveFreeBytes` with one filler file. */
  fill(leaveFreeBytes: number): void;
  /** Deletes the filler: the space is back. */
  empty(): void;
  /** Unmounts and removes the folder. */
  remove(): void;
}

export function mountSmallDisk(prefix: string, size: string): SmallDisk {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const filler = path.join(dir, 'filler');
  let mounted: true | string;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    mounted = `this test mounts a ${size} tmpfs to fill, which needs root (or CAP_SYS_ADMIN); mount said: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
  }
  return {
    dir,
    mounted,
    fill(leaveFreeBytes) {
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leaveFreeBytes)));
    },
    empty() {
      rmSync(filler, { force: true });
    },
    remove() {
      if (mounted === true) execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
