import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('gives defaults that make a fresh clone work', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('127.0.0.1');
    expect(env.PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('treats an empty variable as unset and strips a trailing slash from PUBLIC_URL', () => {
    const env = loadEnv({ PORT: '', PUBLIC_URL: 'https://dh.example/' });
    expect(env.PORT).toBe(3000);
    expect(env.PUBLIC_URL).toBe('https://dh.example');
  });

  it('names each bad variable in words', () => {
    let message = '';
    try {
      loadEnv({ PORT: 'eighty', PUBLIC_URL: 'not a url', LOG_LEVEL: 'loud' });
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/PORT="eighty": must be a number/);
    expect(message).toMatch(/PUBLIC_URL="not a url": must be a full URL/);
    expect(message).toMatch(/LOG_LEVEL="loud"/);
  });

  it('refuses a port out of range', () => {
    expect(() => loadEnv({ PORT: '70000' })).toThrow(/PORT="70000": must be 0–65535/);
  });
});
