// When a row whose send failed is tried again, and when it is given up: the same policy for a
// mail server that is down (no answer), busy (4xx) or slow, so an outage ends in a trickle of
// retries rather than a stampede.

export const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 16 * 60_000;
/** After this long an email is marked failed rather than retried for ever. */
export const GIVE_UP_AFTER_MS = 48 * 60 * 60_000;

/** 30 s after the first failure, doubling, at most 16 min. */
export const retryDelayMs = (failures: number): number =>
  Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
