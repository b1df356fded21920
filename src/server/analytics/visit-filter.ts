import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';

export type SkipReason = 'gpc' | 'dnt' | 'bot' | 'prefetch';

// isbot's pattern is long and a launch-day crowd uses a few hundred distinct user agents, so
// remember the verdict per string (bounded: a flood of made-up agents just cycles the map).
const verdicts = new Map<string, boolean>();
function isBot(userAgent: string): boolean {
  let verdict = verdicts.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent);
    if (verdicts.size >= 5000) verdicts.clear();
    verdicts.set(userAgent, verdict);
  }
  return verdict;
}

/**
 * Why a beacon must not be counted, or null to count it. Global Privacy Control and Do Not Track
 * are honoured as a refusal; bots (isbot's maintained list) and prefetches are not people visiting.
 */
export function skipReason(headers: IncomingHttpHeaders): SkipReason | null {
  if (headers['sec-gpc'] === '1') return 'gpc';
  if (headers.dnt === '1') return 'dnt';
  const ua = headers['user-agent'];
  if (!ua || isBot(ua)) return 'bot';
  const purpose = `${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''} ${headers['x-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`;
  if (/prefetch|preview|prerender/i.test(purpose)) return 'prefetch';
  return null;
}
