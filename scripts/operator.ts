// `npm run operator -- <command>`: the console's operators, managed from the server's shell.
// It uses DATABASE_URL exactly as the server does (and applies pending migrations first, so the
// first operator can be made before the server has ever started). See the README.
import os from 'node:os';
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { read } from 'read';
import { operatorEmailSchema } from '../src/shared/admin/sign-in-schema.ts';
import type { AuditAction } from '../src/shared/admin/audit-schema.ts';
import { operatorRoles, operatorRoleSchema, type OperatorRole } from '../src/shared/admin/roles.ts';
import { recordAudit } from '../src/server/admin/audit.ts';
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
} from '../src/server/admin/operators.ts';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../src/server/admin/passwords.ts';
import { totpUri } from '../src/server/admin/totp.ts';
import { EnvError, loadEnv } from '../src/server/env.ts';
import { errorText } from '../src/server/lib/log-safe.ts';
import { openStore, type Store } from '../src/server/store/database.ts';
import { migrateToLatest } from '../src/server/store/migrate.ts';
import { DataKeyError, secretBoxFromEnv } from '../src/server/store/data-keys.ts';
import type { SecretBox } from '../src/server/store/secret-box.ts';

const usage = `Usage: npm run operator -- <command>

  add <email> --role <role>
                      create an operator: asks for a password, prints the authenticator
                      set-up (otpauth:// URI, and a QR code on a terminal) and ten recovery codes.
                      The role is viewer, sender or owner; the first operator is always an owner
  role <email> <role> give an operator another role (their sessions end)
  list                list operators
  remove <email>      remove an operator (their sessions end)
  passwd <email>      set a new password (their sessions end)
  reset-2fa <email>   new authenticator secret and recovery codes; their passkeys are removed
                      and their sessions end

The password is read from standard input: typed at a prompt (not shown) on a terminal, or the
first line when piped, e.g.  printf '%s\\n' "$PASSWORD" | npm run operator -- add me@example.com
Uses DATABASE_URL like the server (unset: data/dh.sqlite).`;

/** A failure the person at the terminal can fix: printed without a stack, exit code 1. */
class CliError extends Error {}
/** Wrong use of the command: usage printed, exit code 2. */
class UsageError extends Error {}

async function firstLine(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  const line = text.split('\n')[0] ?? '';
  return line.replace(/\r$/, '');
}

async function askPassword(email: string): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await read({ prompt: `New password for ${email} (at least ${MIN_PASSWORD_LENGTH} characters): `, silent: true, replace: '' });
    const again = await read({ prompt: 'The same password again: ', silent: true, replace: '' });
    if (again !== password) throw new CliError('The two passwords differ. Nothing was changed.');
  } else {
    password = await firstLine();
    if (password === '') throw new CliError('No password on standard input (pipe one line, or run this in a terminal).');
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
  const { values, positionals } = parseArgs({ args, options: { role: { type: 'string' } }, allowPositionals: true, strict: false });
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
  const uri = totpUri(factors.totpSecret, email);
  console.log('\nAdd this to an authenticator app (scan the QR code, or paste the link):\n');
  if (process.stdout.isTTY) console.log(await QRCode.toString(uri, { type: 'terminal', small: true }));
  console.log(`  ${uri}\n`);
  console.log('Recovery codes: each signs in once without the app. Keep them somewhere safe, offline;');
  console.log('they are not shown again.\n');
  for (const code of factors.recoveryCodes) console.log(`  ${code}`);
  console.log('');
}

async function run(store: Store, secrets: SecretBox, command: string | undefined, args: string[]): Promise<void> {
  const db = store.db;
  const now = () => new Date();
  const by = `by ${os.userInfo().username} on ${os.hostname()}`;
  const log = (action: AuditAction, subject: string, what?: string) =>
    recordAudit(db, now(), { email: null, via: 'command-line' }, { action, subject, detail: what ? `${what}, ${by}` : by });

  switch (command) {
    case 'add': {
      const { email, role: asked } = addArgs(args);
      if (await findOperator(db, email)) throw new CliError(`An operator with the address ${email} exists already.`);
      // Someone has to be able to do everything; after that, nobody gets more than was asked for.
      const first = !(await hasOperators(db));
      const role = first ? 'owner' : asked;
      if (!role) throw new UsageError(`Give the new operator a role: --role ${operatorRoles.join('|')}.`);
      if (first && asked && asked !== 'owner') console.log(`${email} is the first operator, so an owner (not ${asked}).`);
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
        console.log(`${o.email}\t${o.role}\tadded ${o.createdAt.slice(0, 10)}\t${o.activeSessions} active session(s)\t${o.recoveryCodesLeft} recovery code(s) left`);
      }
      return;
    }
    case 'role': {
      const [address, raw, ...rest] = args;
      if (address === undefined || raw === undefined || rest.length > 0) throw new UsageError('role takes an email address and a role.');
      const email = emailArg([address]);
      const role = roleArg(raw);
      const before = await setRole(db, email, role, now());
      await log('operator.role-changed', email, `${before} → ${role}`);
      console.log(`${email} is now ${role} (was ${before}); their sessions have ended.`);
      return;
    }
    case 'remove': {
      const email = emailArg(args);
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
      const factors = await resetTwoFactor(db, email, now(), secrets);
      await log('operator.2fa-reset', email);
      console.log(`New authenticator secret and recovery codes for ${email}; the old ones and their passkeys no longer work, and their sessions have ended.`);
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

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  let store: Store | undefined;
  try {
    const env = loadEnv();
    const secrets = secretBoxFromEnv(env);
    store = await openStore(env.DATABASE_URL);
    await migrateToLatest(store.db, { secrets });
    await run(store, secrets, command, args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${usage}`);
      return 2;
    }
    if (error instanceof CliError || error instanceof OperatorError || error instanceof EnvError || error instanceof DataKeyError) {
      console.error(error.message);
      return 1;
    }
    console.error(`The operator command failed: ${errorText(error)}`);
    return 1;
  } finally {
    await store?.close();
  }
}

process.exitCode = await main();
