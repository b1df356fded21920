import { apiPaths } from './paths.ts';
import { defineContract } from './route-contract.ts';

/**
 * GET /api/csrf: sets the form's cookies (the XSRF token, its secret and the fill-time mark) and
 * answers 204 with no body. The server registers it from this contract; the page's loader asks
 * for it through a type-checked copy of its path (src/client/lib/xsrf-cookie.ts), because
 * importing this module there would add a chunk before the loader runs.
 */
export const csrfContract = defineContract({
  method: 'GET',
  path: apiPaths.csrf,
  reply: { empty: 204 },
  // Nothing of its own besides what any route may answer (rate_limited, internal, unavailable).
  errors: [],
});
