/**
 * The CSRF token's names on the wire: the server sets the cookie, the client's HTTP helper copies
 * it into the header (signed double-submit; src/server/plugins/write-protection.ts). Where the
 * site is served over https the cookie carries the `__Host-` prefix (Secure, whole site, this host
 * only), so the helper looks for that name first.
 */
export const xsrf = { cookie: 'XSRF-TOKEN', hostCookie: '__Host-XSRF-TOKEN', header: 'x-xsrf-token' } as const;
