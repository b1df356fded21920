import { useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

// Renders nothing of its own, so the markup still matches the server's; its effect runs once the
// island's hydration has committed.
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

/**
 * Hydrates one island: its own React root over its own part of the server's HTML, with its own
 * props. Resolves when React has taken over (event handlers attached, effects run). A click
 * that lands after this call but before that moment is React's to handle: it hydrates the root
 * at once and then dispatches the click, so the loader must not replay it as well.
 */
export function hydrateIsland(container: HTMLElement, island: ReactNode): Promise<void> {
  return new Promise((resolve) => {
    hydrateRoot(container, <Committed onCommit={resolve}>{island}</Committed>);
  });
}
