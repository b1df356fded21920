import { WalletButton } from '../sections/wallet-button.tsx';
import { hydrateIsland } from './hydrate.tsx';
import type { IslandProps } from './island-names.ts';

export const mount = (container: HTMLElement, props: IslandProps['wallet']): Promise<void> =>
  hydrateIsland(container, <WalletButton words={props.words} />);
