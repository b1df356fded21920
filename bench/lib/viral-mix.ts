// A viral hour, as requests: what the headline bench offers, in multiples, at a fixed arrival rate.
// Issue 32: a viral hour is about 280 page views and 8 sign-ups a second. Beside them:
// - one beacon per page view: the page's script sends one POST /api/visit for each view it
//   renders (src/client), so beacons follow page views one for one;
// - in allowlist mode, one proof for every ten page views: the page asks for a proof only once a
//   visitor has connected a wallet that joined, and a launch's audience is mostly people without
//   one ready; a tenth is generous, and the proof is the route issue 20 and 32 hold to a target.
import { randomBytes } from 'node:crypto';
import { Address } from 'ox';
import { locales } from '../../src/shared/locales.ts';
import { apiPaths } from '../../src/shared/paths.ts';
import { localePath } from '../../src/shared/locale-paths.ts';
import { fillPath } from '../../src/shared/route-contract.ts';
import { BEACON_BODY, BEACON_HEADERS, nextAddress, VISIT_PATH } from './beacon-load.ts';
import type { OpenLoopRequest } from './open-loop.ts';
import { headersFor, nextBody, SIGNUP_PATH, type Visitor } from './signup-load.ts';

/** Requests a second in one viral hour, by kind. */
export const VIRAL_HOUR = { page: 280, beacon: 280, signup: 8, proof: 28 } as const;
export type MixKind = keyof typeof VIRAL_HOUR;
export const MIX_KINDS = Object.keys(VIRAL_HOUR) as MixKind[];
export const VIRAL_HOUR_RATE = MIX_KINDS.reduce((sum, k) => sum + VIRAL_HOUR[k], 0);

/**
 * Half the page views are of /, the other half spread over the other locales' home pages: a
 * launch is shared mostly by its main address, and the translations are what the rest reach.
 */
export const PAGE_PATHS: string[] = (() => {
  const others = locales.filter((l) => l !== 'en').map((l) => localePath(l, '/'));
  return others.flatMap((p) => ['/', p]);
})();

/** A current desktop Chrome asking for a page, as a launch's visitors mostly are. */
export const PAGE_HEADERS: Record<string, string> = {
  'user-agent': BEACON_HEADERS['user-agent'],
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'br',
  'accept-language': 'en-GB,en;q=0.9',
};

/** Wallets for the allowlist's snapshot: checksummed addresses, random for each run. */
export const randomWallets = (n: number): string[] =>
  Array.from({ length: n }, () => Address.checksum(`0x${randomBytes(20).toString('hex')}`));

export const proofPath = (address: string): string => fillPath(apiPaths.allowlistProof, { address });

/**
 * One cycle of kinds in the viral hour's proportions (140 beacons : 140 pages : 14 proofs : 4
 * sign-ups per 298), spread evenly rather than in runs, so every second of a step sees the mix.
 */
function cycle(): MixKind[] {
  const unit = 2; // the greatest common divisor of the rates
  const counts = MIX_KINDS.map((k) => VIRAL_HOUR[k] / unit);
  const total = counts.reduce((a, b) => a + b, 0);
  // Each kind's i-th slot at (i + 0.5) / count of the cycle, then sorted: an even interleave.
  const slots = MIX_KINDS.flatMap((k, ki) =>
    Array.from({ length: counts[ki] ?? 0 }, (_, i) => ({ k, at: (i + 0.5) / (counts[ki] ?? 1) })),
  );
  slots.sort((a, b) => a.at - b.at);
  if (slots.length !== total) throw new Error('the mix cycle lost a slot');
  return slots.map((s) => s.k);
}

const CYCLE = cycle();

/** The next request of the mix, for runOpenLoop's `next`; a sign-up uses `visitor`'s CSRF pair. */
export function mixRequests(opts: {
  visitor: Visitor;
  wallets: string[];
  forwardedFor: boolean;
  /** Requests of this kind only (the headline's CPU per kind of request). */
  only?: MixKind;
}): () => OpenLoopRequest {
  let i = 0;
  let page = 0;
  let wallet = 0;
  const signupHeaders = headersFor(opts.visitor);
  return (): OpenLoopRequest => {
    const kind = opts.only ?? CYCLE[i++ % CYCLE.length] ?? 'page';
    switch (kind) {
      case 'page':
        return { method: 'GET', tag: kind, path: PAGE_PATHS[page++ % PAGE_PATHS.length] ?? '/', headers: PAGE_HEADERS };
      case 'beacon':
        // Behind TRUST_PROXY, a public address of its own per beacon, as separate visitors have
        // (nginx sets X-Forwarded-For itself in the cluster set-up: there every beacon is 127.0.0.1).
        return {
          method: 'POST',
          tag: kind,
          path: VISIT_PATH,
          headers: opts.forwardedFor ? { ...BEACON_HEADERS, 'x-forwarded-for': nextAddress() } : BEACON_HEADERS,
          body: BEACON_BODY,
        };
      case 'signup':
        return { method: 'POST', tag: kind, path: SIGNUP_PATH, headers: signupHeaders, body: nextBody() };
      case 'proof':
        return {
          method: 'GET',
          tag: kind,
          path: proofPath(opts.wallets[wallet++ % opts.wallets.length] ?? ''),
          headers: { accept: 'application/json', 'user-agent': BEACON_HEADERS['user-agent'] },
        };
    }
  };
}
