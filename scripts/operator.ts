// `npm run operator -- <command>`: the console's operators, managed from the server's shell.
// It uses DATABASE_URL exactly as the server does and says which store that is before anything
// else. It acts only on a store that exists and holds the app's tables (applying any pending
// migration, as the server does at start); `--create` makes a new one, so the first operator can
// be made before the server has ever started, and a mistyped URL never starts an empty store
// (docs/decisions/0032-tamper-evident-audit-and-deploy-defaults.md). See the README.
//
// This file is the process: its exit codes and what is said on each failure. The commands are
// operator/commands.ts; what is asked and shown at the terminal operator/terminal.ts.
import { OperatorError } from '../src/server/features/operators/index.ts';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { MissingStoreError, type Store } from '../src/server/store/database.ts';
import { DataKeyError, secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import type { SecretBox } from '../src/server/store/secret-box.ts';
import { takeFlag } from './operator/arguments.ts';
import { CliError, UsageError } from './operator/cli-errors.ts';
import { run, usage } from './operator/commands.ts';
import { openExistingStore } from './operator/open-store.ts';
import { closeInput } from './operator/terminal.ts';

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  const create = takeFlag(args, '--create');
  const yes = takeFlag(args, '--yes');
  let store: { store: Store; secrets: SecretBox } | undefined;
  try {
    const env = loadEnv();
    if (command === undefined || ['help', '--help', '-h'].includes(command)) {
      console.log(usage);
      return 0;
    }
    // The data key only once the store is known to be there: a development key file is made
    // beside the database, never beside a mistyped one.
    store = await openExistingStore(env.DATABASE_URL, create, () => secretBoxFromEnv(env));
    await run(store.store, store.secrets, command, args, { yes });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof MissingStoreError) {
      console.error(`${error.message} Nothing was created; to start a new store there, run again with --create.`);
      return 1;
    }
    if (
      error instanceof CliError ||
      error instanceof OperatorError ||
      error instanceof EnvError ||
      error instanceof DataKeyError
    ) {
      console.error(error.message);
      return 1;
    }
    console.error(`The operator command failed: ${errorText(error)}`);
    return 1;
  } finally {
    closeInput();
    await store?.store.close();
  }
}

process.exitCode = await main();
