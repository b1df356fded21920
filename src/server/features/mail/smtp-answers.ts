// What the mail server's answer to one email means for its outbox row: worth a retry, the
// server's last word, and which kind of bounce to put on the suppression list when the row is
// given up. Read from nodemailer's error (responseCode, response), never from its message text,
// which may hold the address.

/** An SMTP answer in the 5xx range: the server refused for good; retrying will not change it. */
export const isPermanentSmtpFailure = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * A given-up row's bounce: 5xx hard, but 5.7.x (a receiver's policy or content filter: it refused
 * our mail, not the address) a policy refusal; 4xx (retried until given up) soft; no answer at all
 * is neither. docs/decisions/0035-bounces-complaints-and-suppression.md
 */
export function smtpBounceKind(error: unknown): 'hard' | 'soft' | 'policy' | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof code !== 'number') return null;
  if (code >= 500 && code < 600) return smtpStatus(error)?.startsWith('5.7.') ? 'policy' : 'hard';
  return code >= 400 && code < 500 ? 'soft' : null;
}

/** The enhanced status (RFC 3463, e.g. "5.1.1") or the reply code; the reply text may hold the address. */
export function smtpStatus(error: unknown): string | null {
  const e = error as { responseCode?: unknown; response?: unknown } | null;
  const enhanced = typeof e?.response === 'string' ? /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(e.response)?.[1] : undefined;
  return enhanced ?? (typeof e?.responseCode === 'number' ? String(e.responseCode) : null);
}
