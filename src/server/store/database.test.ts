import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './database.ts';

describe('parseDatabaseUrl', () => {
  it('defaults to the embedded SQLite file', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ dialect: 'sqlite', target: 'data/dh.sqlite' });
    expect(parseDatabaseUrl('')).toEqual({ dialect: 'sqlite', target: 'data/dh.sqlite' });
  });
  it('reads sqlite:<path>, relative or absolute', () => {
    expect(parseDatabaseUrl('sqlite:var/list.sqlite')).toEqual({ dialect: 'sqlite', target: 'var/list.sqlite' });
    expect(parseDatabaseUrl('sqlite:///srv/dh.sqlite')).toEqual({ dialect: 'sqlite', target: '/srv/dh.sqlite' });
  });
  it('reads postgres:// and postgresql:// URLs', () => {
    expect(parseDatabaseUrl('postgres://u:p@db:5432/dh').dialect).toBe('postgres');
    expect(parseDatabaseUrl('postgresql://db/dh').dialect).toBe('postgres');
  });
  it('refuses anything else in words', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow('needs a file path');
    expect(() => parseDatabaseUrl('mysql://db')).toThrow('must start with sqlite: or postgres://');
  });
});
