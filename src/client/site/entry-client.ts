// The page's loader: the only JavaScript that runs before a visitor does anything (besides the
// inline snippet that starts it and the visit beacon). It never loads React. It finds the
// islands the server marked (islands/island.tsx), and wakes each one when it is needed: the
// countdown at once, the sign-up form when it comes near the screen or is touched, the wallet
// button at the first sign of intent. Until then the server's HTML does the work: the FAQ is
// native <details>, the wallet flips in CSS on hover and focus, the form posts without script.
// docs/decisions/0010-page-islands.md
import { earlyClicksGlobal } from '../../shared/early-clicks.ts';
import { ensureXsrfCookie } from '../lib/xsrf-cookie.ts';
import type { IslandName, IslandProps, IslandWake } from './islands/island-names.ts';
import './styles.css';

interface IslandModule<N extends IslandName> {
  /**
   * Gets what the island needs besides its code (its locale's words), then gives the function
   * that takes over the container. Early clicks are remembered until that function exists, so a
   * tap that lands while the words are on their way is replayed, not lost.
   */
  prepare(props: IslandProps[N]): Promise<(container: HTMLElement) => Promise<void>>;
}

type Islands = { [N in IslandName]: { wake: IslandWake; load: () => Promise<IslandModule<N>> } };

// An island that has words fetches its own locale's file itself (islands/island-words.ts), so
// this loader, which every visitor runs, carries no table of languages.
const islands: Islands = {
  countdown: { wake: 'load', load: () => import('./islands/countdown-island.ts') },
  signup: { wake: 'visible', load: () => import('./islands/signup-island.tsx') },
  wallet: { wake: 'interaction', load: () => import('./islands/wallet-island.tsx') },
  allowlist: { wake: 'interaction', load: () => import('./islands/allowlist-island.ts') },
  copy: { wake: 'interaction', load: () => import('./islands/copy-island.ts') },
};

const isIslandName = (name: string | undefined): name is IslandName => !!name && Object.hasOwn(islands, name);

// Signs that a person is about to use an island: any of them loads its code. A touch starts it
// before the click that follows, a hover before the press.
const intentEvents = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

// Taps on script-only buttons that landed after the first paint, before this loader had arrived:
// the page's inline script kept them (server/features/site/site-build.ts). Each wakes its island at once.
const beforeLoader = window[earlyClicksGlobal]?.() ?? [];

function wake<N extends IslandName>(container: HTMLElement, name: N): void {
  const spec = islands[name];
  // Clicks that land before the island's code has arrived: replayed once it has hydrated, so a
  // quick tap on a slow phone still flips the wallet button. (A click after hydrateRoot is
  // React's own to replay; see hydrate.tsx.) Each control is replayed once, however often it was
  // tapped: a person who taps again because nothing happened meant it once (decision 0055).
  const early = beforeLoader.filter((button) => container.contains(button));
  const remember = (event: Event) => {
    if (!(event.target instanceof HTMLElement)) return;
    const control = event.target.closest<HTMLElement>('button, a') ?? event.target;
    if (!early.includes(control)) early.push(control);
  };

  const start = () => {
    if (container.dataset.islandState) return;
    container.dataset.islandState = 'loading';
    for (const type of intentEvents) container.removeEventListener(type, start);
    observer?.disconnect();
    const props = JSON.parse(container.dataset.props ?? '{}') as IslandProps[N];
    spec
      .load()
      .then((module) => module.prepare(props))
      .then((mount) => {
        container.removeEventListener('click', remember, true);
        const done = mount(container);
        for (const target of early.splice(0)) if (target.isConnected) target.click();
        return done;
      })
      .then(
        () => {
          container.dataset.islandState = 'hydrated';
        },
        // The server's HTML keeps working without the island (the form still posts), so a chunk
        // that fails to arrive is not an error worth a visitor's console.
        () => {
          container.dataset.islandState = 'failed';
        },
      );
  };

  let observer: IntersectionObserver | undefined;
  if (spec.wake === 'load') return start();
  container.addEventListener('click', remember, true);
  for (const type of intentEvents) container.addEventListener(type, start, { passive: true });
  if (spec.wake === 'visible') {
    // The wrapper has no box of its own (display: contents), so watch what it wraps. A margin
    // of a quarter screen starts the download just before the form comes into view.
    observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), {
      rootMargin: '25% 0px',
    });
    for (const child of container.children) observer.observe(child);
  }
  if (early.length > 0) start();
}

for (const container of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = container.dataset.island;
  if (isIslandName(name)) wake(container, name);
}

// The form's cookies (CSRF, and the time trap's start) come now, at idle time, with no need for
// the form's code: the trap then starts about when the page appeared, as it did when the whole
// page hydrated, so a quick person is never taken for a bot, and a bot gets nothing it could not
// get before by asking /api/csrf itself.
if (document.querySelector('[data-island="signup"]')) {
  const getCookies = () => void ensureXsrfCookie().catch(() => undefined);
  if ('requestIdleCallback' in window) requestIdleCallback(getCookies, { timeout: 2000 });
  else setTimeout(getCookies, 0);
}

// A public "the loader has run; every island is armed" mark: browser tests and monitoring wait
// for it instead of guessing. Each island says for itself when it has hydrated
// (data-island-state="hydrated").
document.documentElement.dataset.hydrated = 'true';
