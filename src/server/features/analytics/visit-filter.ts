import type { IncomingHttpHeaders } from 'node:http';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';

export type SkipReason = 'gpc' | 'dnt' | 'bot' | 'prefetch';

// Real user agents are 100–300 characters; a longer one is judged every time, never kept.
const MAX_CACHED_AGENT = 512;
// Per entry on top of the string: the map slot, the list links, the boolean.
const ENTRY_OVERHEAD = 64;

/**
 * isbot's pattern is long and a launch-day crowd uses a few hundred distinct user agents, so the
 * verdict per string is remembered, in at most `maxBytes` (strings counted at a byte a character,
 * which is what V8 spends on ASCII). A flood of made-up agents only pushes out the oldest
 * verdicts; each one pushed out is reported to `onEvict`, so it can be counted.
 */
export class BotVerdicts {
  private readonly cache: LRUCache<string, boolean>;

  constructor(opts: { maxBytes?: number; onEvict?: () => void } = {}) {
    const onEvict = opts.onEvict;
    this.cache = new LRUCache<string, boolean>({
      maxSize: opts.maxBytes ?? 1024 * 1024,
      sizeCalculation: (_verdict, agent) => agent.length + ENTRY_OVERHEAD,
      ...(onEvict
        ? { dispose: (_v: boolean, _k: string, reason: LRUCache.DisposeReason) => reason === 'evict' && onEvict() }
        : {}),
    });
  }

  isBot(userAgent: string): boolean {
    if (userAgent.length > MAX_CACHED_AGENT) return isbot(userAgent);
    let verdict = this.cache.get(userAgent);
    if (verdict === undefined) {
      verdict = isbot(userAgent);
      this.cache.set(userAgent, verdict);
    }
    return verdict;
  }

  /** Bytes held now, as counted against `maxBytes`. */
  get bytes(): number {
    return this.cache.calculatedSize;
  }
}

const sharedVerdicts = new BotVerdicts();

/**
 * Why a beacon must not be counted, or null to count it. Global Privacy Control and Do Not Track
 * are honoured as a refusal; bots (isbot's maintained list) and prefetches are not people visiting.
 */
export function skipReason(headers: IncomingHttpHeaders, verdicts: BotVerdicts = sharedVerdicts): SkipReason | null {
  if (headers['sec-gpc'] === '1') return 'gpc';
  if (headers.dnt === '1') return 'dnt';
  const ua = headers['user-agent'];
  if (!ua || verdicts.isBot(ua)) return 'bot';
  const purpose = `${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''} ${headers['x-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`;
  if (/prefetch|preview|prerender/i.test(purpose)) return 'prefetch';
  return null;
}
