import { WalletButton } from '../sections/wallet-button.tsx';
import { hydrateIsland } from './hydrate.tsx';

// The wallet button takes no props (IslandProps['wallet'] is empty).
export const mount = (container: HTMLElement): Promise<void> => hydrateIsland(container, <WalletButton />);
