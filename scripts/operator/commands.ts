import os from 'node:os';
import type { AuditAction } from '../../src/shared/admin/audit-schema.ts';
import { operatorRoles } from '../../src/shared/admin/roles.ts';
import { recordAudit } from '../../src/server/features/audit/index.ts';
import {
  addOperator,
  changePassword,
  findOperator,
  hasOperators,
  listOperators,
  removeOperator,
  resetTwoFactor,
  setRole,
} from '../../src/server/features/operators/index.ts';
import type { Store } from '../../src/server/store/database.ts';
import type { SecretBox } from '../../src/server/store/secret-box.ts';
import { addArgs, emailArg, roleArg } from './arguments.ts';
import { CliError, UsageError } from './cli-errors.ts';
import { askPassword, confirmAddress, printFactors } from './terminal.ts';

// Each command of `npm run operator`, on a store already open and migrated (open-store.ts). Every
// change is written to the audit log as done from the command line, by whom on which machine.

export const usage = `Usage: npm run operator -- <command> [--create] [--yes]

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

export async function run(
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
