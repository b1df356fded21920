import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';

export type SkipReason = 'gpc' | 'dnt' | 'bot' | 'prefetch';

/**
 * Why a beacon must not be counted, or null to count it. Global Privacy Control and Do Not Track
 * are honoured as a refusal; bots (isbot's maintained list) and prefetches are not people visiting.
 */
export function skipReason(headers: IncomingHttpHeaders): SkipReason | null {
  if (headers['sec-gpc'] === '1') return 'gpc';
  if (headers.dnt === '1') return 'dnt';
  const ua = headers['user-agent'];
  if (!ua || isbot(ua)) return 'bot';
  const purpose = `${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''} ${headers['x-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`;
  if (/prefetch|preview|prerender/i.test(purpose)) return 'prefetch';
  return null;
}
