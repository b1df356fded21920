/**
 * The CSRF token's names on the wire: the server sets the cookie, the client's HTTP helper copies
 * it into the header (signed double-submit; src/server/plugins/write-protection.ts).
 */
export const xsrf = { cookie: 'XSRF-TOKEN', header: 'x-xsrf-token' } as const;
