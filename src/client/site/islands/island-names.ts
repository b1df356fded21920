import type { Messages } from '../../../shared/messages/index.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { SignupView } from '../../../shared/signup-schema.ts';

// The page's islands: the only parts that run in the browser. Everything else on the page is
// server-rendered HTML that never ships as JavaScript (docs/decisions/0010-page-islands.md).
export interface IslandProps {
  /** Connect Wallet: React, woken by the first sign of intent (hover, focus, touch, click). */
  // Its four short sentences ride in the props rather than in a chunk per locale: no request more.
  wallet: { words: Messages['wallet'] };
  /** The sign-up form: React, woken when the visitor nears or touches it. */
  signup: { initial?: SignupView; locale: Locale; invite?: string };
  /** The allowlist's connect: plain script (no React), woken by the first sign of intent. */
  allowlist: { chainId: number; locale: Locale };
  /** The presale countdown: a few lines of plain script, started at load (it ticks unasked). */
  countdown: { opensAt: string; locale: Locale };
  /** The invite link's copy button: a few lines of plain script, woken by the first sign of intent. */
  copy: { copied: string };
}

export type IslandName = keyof IslandProps;

/** When an island's code loads: at load, when it scrolls near, or on the first sign of intent. */
export type IslandWake = 'load' | 'visible' | 'interaction';
