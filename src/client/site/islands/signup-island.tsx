import { setConnectionWords } from '../../lib/connection-words.ts';
import { SignupForm } from '../sections/signup-form.tsx';
import { hydrateIsland } from './hydrate.tsx';
import type { IslandProps } from './island-names.ts';
import { islandWords } from './island-words.ts';

export async function prepare(props: IslandProps['signup']): Promise<(container: HTMLElement) => Promise<void>> {
  const [words, connection] = await Promise.all([
    islandWords.signup(props.locale),
    islandWords.connection(props.locale),
  ]);
  setConnectionWords(connection);
  return (container) =>
    hydrateIsland(
      container,
      <SignupForm initial={props.initial} words={words} locale={props.locale} invite={props.invite} />,
    );
}
