// The words of the one error shape (src/shared/api-error.ts) when no route says more, by HTTP status
// or by code (content/messages/<locale>/http-errors.ts). Server-only.

/** The statuses an answer without words of its own is said in. */
export type HttpErrorStatus = 400 | 403 | 404 | 405 | 408 | 413 | 415 | 429 | 503 | 500;

export type HttpErrorMessages = Record<HttpErrorStatus, string> & {
  csrf: string;
  crossSite: string;
  invalidFields: string;
  /** The database is out of reach or out of room (store-errors.ts). */
  storeDown: (wait: { seconds: number }) => string;
};
