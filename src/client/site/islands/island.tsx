import type { ReactNode } from 'react';
import type { IslandName, IslandProps } from './island-names.ts';

/**
 * Marks where an island starts in the server's HTML: a wrapper without a box of its own
 * (`display: contents`) that carries the island's name and its props. The browser's loader
 * (entry-client.ts) finds it and hands exactly these props to the island's code, which renders
 * the same children, so hydration matches.
 */
export function Island<N extends IslandName>({
  name,
  props,
  children,
}: {
  name: N;
  props: IslandProps[N];
  children: ReactNode;
}) {
  const json = JSON.stringify(props);
  return (
    <div className="island" data-island={name} data-props={json === '{}' ? undefined : json}>
      {children}
    </div>
  );
}
