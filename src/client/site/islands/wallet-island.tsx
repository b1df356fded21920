import { WalletButton } from '../sections/wallet-button.tsx';
import { hydrateIsland } from './hydrate.tsx';
import type { IslandProps } from './island-names.ts';

// Its words are in its props: nothing to wait for.
export const prepare = (props: IslandProps['wallet']): Promise<(container: HTMLElement) => Promise<void>> =>
  Promise.resolve((container) => hydrateIsland(container, <WalletButton words={props.words} />));
