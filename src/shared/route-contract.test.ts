import { describe, expect, it } from 'vitest';
import * as adminContracts from './admin/contracts.ts';
import { apiPaths } from './paths.ts';
import { fillPath, type RouteContract } from './route-contract.ts';
import { signupFields } from './signup-schema.ts';

const contracts = Object.values(adminContracts) as RouteContract[];

describe('route contracts', () => {
  it('fills each :name segment, URL-encoded, and refuses a missing one', () => {
    expect(fillPath('/api/admin/broadcasts/:id/send', { id: 'a/b c' })).toBe('/api/admin/broadcasts/a%2Fb%20c/send');
    expect(() => fillPath('/api/admin/broadcasts/:id', {})).toThrow(/id/);
  });

  it('names each console route once, under /api/admin', () => {
    const keys = contracts.map((c) => `${c.method} ${c.path}`);
    expect(contracts.length).toBeGreaterThan(30);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of contracts) expect(c.path.startsWith(apiPaths.admin)).toBe(true);
  });

  it('reads the sign-up form fields from the schema, in its order, without the hidden ones', () => {
    // Today's fields first; a field added to the schema joins the list by itself.
    expect(signupFields.slice(0, 3)).toEqual(['name', 'email', 'comment']);
    for (const hidden of ['website', 'locale']) expect(signupFields).not.toContain(hidden);
  });
});
