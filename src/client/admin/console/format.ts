/** A time as the operator's browser writes it, e.g. "22 Nov 2026, 14:05". */
export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
