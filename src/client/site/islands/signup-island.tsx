import { signupMessages } from '../../../../content/messages/en/signup.ts';
import { SignupForm } from '../sections/signup-form.tsx';
import { hydrateIsland } from './hydrate.tsx';
import type { IslandProps } from './island-names.ts';

export const mount = (container: HTMLElement, props: IslandProps['signup']): Promise<void> =>
  hydrateIsland(container, <SignupForm initial={props.initial} words={signupMessages} />);
