// `npm run operator -- <command>`: the console's operators, managed from the server's shell.
// It uses DATABASE_URL exactly as the server does and says which store that is before anything
// else. It acts only on a store that exists and holds the app's tables (applying any pending
// migration, as the server does at start); `--create` makes a new one, so the first operator can
// be made before the server has ever started, and a mistyped URL never starts an empty store
// (docs/decisions/0032-tamper-evident-audit-and-deploy-defaults.md). See the README.
import os from 'node:os';
import { parseArgs } from 'node:util';
import readline from 'node:readline';
import { sql } from 'kysely';
import QRCode from 'qrcode';
import { read } from 'read';
import { operatorEmailSchema } from '../src/shared/admin/sign-in-schema.ts';
import type { AuditAction } from '../src/shared/admin/audit-schema.ts';
import { operatorRoles, operatorRoleSchema, type OperatorRole } from '../src/shared/admin/roles.ts';
import { recordAudit } from '../src/server/features/audit/index.ts';
import {
  addOperator,
  changePassword,
  findOperator,
  hasOperators,
  listOperators,
  OperatorError,
  removeOperator,
  resetTwoFactor,
  setRole,
  type NewFactors,
} from '../src/server/features/operators/index.ts';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../src/server/features/operators/index.ts';
import { totpUri } from '../src/server/features/operators/index.ts';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { MissingStoreError, openStore, type Store } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { DataKeyError, secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import type { SecretBox } from '../src/server/store/secret-box.ts';

const usage = `Usage: npm run operator -- <command> [--create] [--yes]

  add <email> --role <role>
                      create an operator: asks for a password, prints the authenticator
                      set-up (otpauth:// URI, and a QR code on a terminal) and ten recovery codes.
                      The role is viewer, sender or owner; the first operator is always an owner
  role <email> <role> give an operator another role (their sessions end)
  list                list operators
  remove <email>      remove an operator (their sessions end); asks for the address again
  passwd <email>      set a new password (their sessions end)
  reset-2fa <email>   new authenticator secret and recovery codes; their passkeys are removed
                      and their sessions end; asks for the address again

  --create            make the database (SQLite file, or the tables on PostgreSQL) if it has none
                      yet: for the first operator, before the server has ever started
  --yes               remove and reset-2fa without asking for the address again

The password is read from standard input: typed at a prompt (not shown) on a terminal, or the
first line when piped, e.g.  printf '%s\\n' "$PASSWORD" | npm run operator -- add me@example.com
The address asked for again is read the same way (after the password, if any).
Uses DATABASE_URL like the server (unset: data/dh.sqlite), and names that store first.`;

/** A failure the person at the terminal can fix: printed without a stack, exit code 1. */
class CliError extends Error {}
/** Wrong use of the command: usage printed, exit code 2. */
class UsageError extends Error {}

// Piped standard input, a line at a time (a password, then a confirmation), without waiting for
// its end: whatever feeds it may keep it open.
let pipedLines: AsyncIterator<string> | null = null;
let pipedReader: readline.Interface | null = null;
async function nextLine(): Promise<string> {
  if (!pipedLines) {
    pipedReader = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    pipedLines = pipedReader[Symbol.asyncIterator]();
  }
  const next = await pipedLines.next();
  return next.done ? '' : next.value;
}

/** Removes `--name` from args wherever it stands; whether it was there. */
function takeFlag(args: string[], name: string): boolean {
  const at = args.indexOf(name);
  if (at < 0) return false;
  args.splice(at, 1);
  return true;
}

/**
 * A destructive command names its operator twice: the address typed (or piped) again must be the
 * same one, so a slip of the finger or of history does not remove the wrong person.
 */
async function confirmAddress(email: string, what: string, yes: boolean): Promise<void> {
  if (yes) return;
  const typed = process.stdin.isTTY
    ? await read({ prompt: `This will ${what} ${email}. Type the address again to go on: ` })
    : await nextLine();
  if (typed === '') throw new CliError(`Nothing was changed: type the address again to confirm (or pass --yes).`);
  const parsed = operatorEmailSchema.safeParse(typed.trim());
  if (!parsed.success || parsed.data.toLowerCase() !== email.toLowerCase()) {
    throw new CliError(`Nothing was changed: the address typed again does not match ${email}.`);
  }
}

/** Standard output captured (a file, a pipe into a log): say so on standard error before any secret. */
function warnIfCaptured(): void {
  if (process.stdout.isTTY) return;
  console.error(
    'Warning: standard output is not a terminal. The authenticator secret and recovery codes below go wherever it is captured (a file, a log); delete them from there once they are stored safely.',
  );
}

async function askPassword(email: string): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await read({
      prompt: `New password for ${email} (at least ${MIN_PASSWORD_LENGTH} characters): `,
      silent: true,
      replace: '',
    });
    const again = await read({ prompt: 'The same password again: ', silent: true, replace: '' });
    if (again !== password) throw new CliError('The two passwords differ. Nothing was changed.');
  } else {
    password = await nextLine();
    if (password === '')
      throw new CliError('No password on standard input (pipe one line, or run this in a terminal).');
  }
  const problem = passwordProblem(password, email);
  if (problem) throw new CliError(`${problem} Nothing was changed.`);
  return password;
}

function emailArg(args: string[]): string {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0) throw new UsageError('Give exactly one email address.');
  const parsed = operatorEmailSchema.safeParse(raw);
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'That is not an email address.');
  return parsed.data;
}

/** `add`'s arguments: one address and a role (the first operator is an owner, whatever is asked). */
function addArgs(args: string[]): { email: string; role: OperatorRole | undefined } {
  const { values, positionals } = parseArgs({
    args,
    options: { role: { type: 'string' } },
    allowPositionals: true,
    strict: false,
  });
  const email = emailArg(positionals);
  if (values.role === undefined) return { email, role: undefined };
  return { email, role: roleArg(String(values.role)) };
}

function roleArg(raw: string): OperatorRole {
  const parsed = operatorRoleSchema.safeParse(raw);
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'That is not a role.');
  return parsed.data;
}

async function printFactors(email: string, factors: NewFactors): Promise<void> {
  warnIfCaptured();
  const uri = totpUri(factors.totpSecret, email);
  console.log('\nAdd this to an authenticator app (scan the QR code, or paste the link):\n');
  if (process.stdout.isTTY) console.log(await QRCode.toString(uri, { type: 'terminal', small: true }));
  console.log(`  ${uri}\n`);
  console.log('Recovery codes: each signs in once without the app. Keep them somewhere safe, offline;');
  console.log('they are not shown again.\n');
  for (const code of factors.recoveryCodes) console.log(`  ${code}`);
  console.log('');
}

async function run(
  store: Store,
  secrets: SecretBox,
  command: string | undefined,
  args: string[],
  flags: { yes: boolean },
): Promise<void> {
  const db = store.db;
  const now = () => new Date();
  const by = `by ${os.userInfo().username} on ${os.hostname()}`;
  const log = (action: AuditAction, subject: string, what?: string) =>
    recordAudit(
      db,
      now(),
      { email: null, via: 'command-line' },
      { action, subject, detail: what ? `${what}, ${by}` : by },
    );

  switch (command) {
    case 'add': {
      const { email, role: asked } = addArgs(args);
      if (await findOperator(db, email)) throw new CliError(`An operator with the address ${email} exists already.`);
      // Someone has to be able to do everything; after that, nobody gets more than was asked for.
      const first = !(await hasOperators(db));
      const role = first ? 'owner' : asked;
      if (!role) throw new UsageError(`Give the new operator a role: --role ${operatorRoles.join('|')}.`);
      if (first && asked && asked !== 'owner')
        console.log(`${email} is the first operator, so an owner (not ${asked}).`);
      const password = await askPassword(email);
      const factors = await addOperator(db, email, password, now(), role, secrets);
      await log('operator.added', email, `as ${role}`);
      console.log(`Added operator ${email} as ${role} (${store.description}).`);
      await printFactors(email, factors);
      return;
    }
    case 'list': {
      if (args.length) throw new UsageError('list takes no arguments.');
      const operators = await listOperators(db, now());
      if (operators.length === 0) {
        console.log('No operators yet. Add the first with: npm run operator -- add you@example.com');
        return;
      }
      for (const o of operators) {
        console.log(
          `${o.email}\t${o.role}\tadded ${o.createdAt.slice(0, 10)}\t${o.activeSessions} active session(s)\t${o.recoveryCodesLeft} recovery code(s) left`,
        );
      }
      return;
    }
    case 'role': {
      const [address, raw, ...rest] = args;
      if (address === undefined || raw === undefined || rest.length > 0)
        throw new UsageError('role takes an email address and a role.');
      const email = emailArg([address]);
      const role = roleArg(raw);
      const before = await setRole(db, email, role, now());
      await log('operator.role-changed', email, `${before} → ${role}`);
      console.log(`${email} is now ${role} (was ${before}); their sessions have ended.`);
      return;
    }
    case 'remove': {
      const email = emailArg(args);
      if (!(await findOperator(db, email)))
        throw new CliError(`There is no operator with the address ${email} in ${store.description}.`);
      await confirmAddress(email, 'remove the operator', flags.yes);
      await removeOperator(db, email);
      await log('operator.removed', email);
      console.log(`Removed operator ${email}; their sessions have ended.`);
      return;
    }
    case 'passwd': {
      const email = emailArg(args);
      if (!(await findOperator(db, email))) throw new CliError(`There is no operator with the address ${email}.`);
      const password = await askPassword(email);
      await changePassword(db, email, password, now());
      await log('operator.password-changed', email);
      console.log(`Changed the password of ${email}; their sessions have ended.`);
      return;
    }
    case 'reset-2fa': {
      const email = emailArg(args);
      if (!(await findOperator(db, email)))
        throw new CliError(`There is no operator with the address ${email} in ${store.description}.`);
      await confirmAddress(email, 'replace the authenticator secret, recovery codes and passkeys of', flags.yes);
      const factors = await resetTwoFactor(db, email, now(), secrets);
      await log('operator.2fa-reset', email);
      console.log(
        `New authenticator secret and recovery codes for ${email}; the old ones and their passkeys no longer work, and their sessions have ended.`,
      );
      await printFactors(email, factors);
      return;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(usage);
      return;
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

/**
 * The store DATABASE_URL names, said first. Without --create it must exist and hold the app's
 * tables: a missing SQLite file is not created, and a PostgreSQL database (or schema) without the
 * operators table is not migrated from nothing. Pending migrations of a store that has them are
 * applied, as the server applies them at start.
 */
async function openExistingStore(
  url: string | undefined,
  create: boolean,
  keys: () => SecretBox,
): Promise<{ store: Store; secrets: SecretBox }> {
  const store = await openStore(url, create ? {} : { create: false });
  // PostgreSQL: the schema first on the search path (a URL's `options=-c search_path=…` may name
  // one), whose tables and migration bookkeeping are the ones meant.
  const pgSchema =
    store.dialect === 'postgres'
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(store.db)).rows[0]?.schema
      : undefined;
  console.error(`Store: ${store.description}${pgSchema && pgSchema !== 'public' ? ` (schema ${pgSchema})` : ''}`);
  if (!create) {
    const present =
      store.dialect === 'postgres'
        ? await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = ${pgSchema ?? ''} AND table_name = 'operators'`.execute(
            store.db,
          )
        : await sql<{
            n: number;
          }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'operators'`.execute(store.db);
    if (Number(present.rows[0]?.n ?? 0) === 0) {
      await store.close();
      throw new CliError(
        `${store.description} holds no Diamond Hand tables: nothing was changed. Check DATABASE_URL; to start a new store there, run again with --create.`,
      );
    }
  }
  try {
    const secrets = keys();
    await migrateToLatest(store.db, { secrets, ...(pgSchema && pgSchema !== 'public' ? { pgSchema } : {}) });
    return { store, secrets };
  } catch (error) {
    await store.close();
    throw error;
  }
}

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
    pipedReader?.close();
    await store?.store.close();
  }
}

process.exitCode = await main();
