import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `npm run db:migrate` as its own process, as a server's start would run it. */
function migrateProcess(databaseUrl: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('migrations on SQLite', () => {
  it('several processes starting on one new file at once all succeed, and each migration is applied once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dh-migrate-race-'));
    dirs.push(dir);
    const file = path.join(dir, 'dh.sqlite');
    const runs = await Promise.all(Array.from({ length: 4 }, () => migrateProcess(`sqlite:${file}`)));
    for (const run of runs) expect(run.code, run.output).toBe(0);
    // Exactly one of them applied the migrations; the others found nothing to do.
    expect(runs.filter((r) => r.output.startsWith('Applied'))).toHaveLength(1);
    const db = new Database(file, { readonly: true });
    try {
      const names = db.prepare('select name from kysely_migration order by name').all() as { name: string }[];
      expect(new Set(names.map((n) => n.name)).size).toBe(names.length);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });
});
