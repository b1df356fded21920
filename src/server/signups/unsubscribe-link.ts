import { pagePaths } from '../../shared/paths.ts';
import type { Keys } from '../plugins/core.ts';

export const UNSUBSCRIBE_PURPOSE = 'unsubscribe';

// Unsubscribe links must keep working in every email ever sent, so they are a keyed signature of
// the subscriber id rather than a stored token: nothing to look up, nothing to leak from the
// database.
export const unsubscribeUrl = (publicUrl: string, keys: Keys, subscriberId: string): string =>
  `${publicUrl}${pagePaths.unsubscribe}?id=${encodeURIComponent(subscriberId)}&sig=${keys.sign(UNSUBSCRIBE_PURPOSE, subscriberId)}`;
