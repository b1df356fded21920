import type { Locale } from '../../../shared/locales.ts';
import type { WalletMessages } from '../../../shared/messages/allowlist.ts';
import type { ConnectionWords } from '../../../shared/messages/connection.ts';
import type { CountdownMessages } from '../../../shared/messages/countdown.ts';
import type { SignupMessages } from '../../../shared/messages/signup.ts';

// The islands' words, one chunk per locale and surface: an island loads its own page's language's
// file once its code has arrived, never the other four. Vite turns each glob into a table of
// dynamic imports, so adding a locale's folder adds its chunks. The table sits in the islands'
// code rather than in the loader every visitor runs (entry-client.ts): in the loader it cost 744
// bytes gzip before interaction, for one round trip saved when an island wakes.
// docs/decisions/0050-a-url-per-locale.md

type Loaders<T> = Record<string, () => Promise<T>>;

const countdownFiles = import.meta.glob<CountdownMessages>('../../../../content/messages/*/countdown.ts', {
  import: 'countdownMessages',
});
const signupFiles = import.meta.glob<SignupMessages>('../../../../content/messages/*/signup.ts', {
  import: 'signupMessages',
});
const allowlistFiles = import.meta.glob<WalletMessages>('../../../../content/messages/*/allowlist.ts', {
  import: 'walletMessages',
});
const connectionFiles = import.meta.glob<ConnectionWords>('../../../../content/messages/*/connection.ts', {
  import: 'connectionWords',
});

function loader<T>(files: Loaders<T>, surface: string) {
  return (locale: Locale): Promise<T> => {
    const load = files[`../../../../content/messages/${locale}/${surface}.ts`];
    // Every locale has every surface (content/messages/folders.test.ts names a folder that lacks one).
    if (!load) return Promise.reject(new Error(`no ${surface} words for ${locale}`));
    return load();
  };
}

export const islandWords = {
  countdown: loader(countdownFiles, 'countdown'),
  signup: loader(signupFiles, 'signup'),
  allowlist: loader(allowlistFiles, 'allowlist'),
  connection: loader(connectionFiles, 'connection'),
};
