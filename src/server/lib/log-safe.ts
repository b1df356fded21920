// What may reach a log line or an error printed at start: never an email address, a link's token
// or signature, a password inside a URL, or a value the caller names as secret. The privacy notice
// promises the request log holds method, path, status and time only; errors from drivers and
// transports do not know that promise (a PostgreSQL error's `detail` quotes the row it refused, an
// SMTP refusal quotes the recipient), so their words pass through here first.

// Letters of any script on both sides: internationalised addresses are addresses too.
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
// user:password@ inside any URL.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi;
// A query string carries tokens and signatures (our links do); keep the path, drop the query.
const URL_QUERY = /\b(https?:\/\/[^\s?#"'<>]*)\?[^\s"'<>]*/gi;
const TOKEN_PARAM = /\b(token|sig|signature|secret|password|pass|key)=[^\s&"'<>]+/gi;

/** The text with addresses, URL credentials and query strings, and any of `secrets` replaced. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret containing another is replaced whole.
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(URL_CREDENTIALS, '$1[redacted]@')
    .replace(URL_QUERY, '$1?[redacted]')
    .replace(TOKEN_PARAM, '$1=[redacted]')
    .replace(EMAIL, '[address]');
}

/** The words of an error, for a log line or an operator: its message, never its stack, redacted. */
export const errorText = (error: unknown): string => redact(error instanceof Error ? error.message : String(error));

/**
 * An error as a log line may carry it: type, code, message and stack, redacted. Not the error
 * itself: pino would copy every enumerable field (a pg error's `detail`, `where`, a parser's raw
 * packet), and those are where the values are.
 */
export function logSafeError(error: unknown): { type: string; code?: string; message: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: redact(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: redact(error.message),
    ...(error.stack ? { stack: redact(error.stack) } : {}),
  };
}
