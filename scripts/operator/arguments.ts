import { parseArgs } from 'node:util';
import { operatorEmailSchema } from '../../src/shared/admin/sign-in-schema.ts';
import { operatorRoleSchema, type OperatorRole } from '../../src/shared/admin/roles.ts';
import { CliError, UsageError } from './cli-errors.ts';

// The command line's words, checked by the schemas the console uses, so an address or a role the
// console would refuse is refused here in the same words.

/** Removes `--name` from args wherever it stands; whether it was there. */
export function takeFlag(args: string[], name: string): boolean {
  const at = args.indexOf(name);
  if (at < 0) return false;
  args.splice(at, 1);
  return true;
}

export function emailArg(args: string[]): string {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0) throw new UsageError('Give exactly one email address.');
  const parsed = operatorEmailSchema.safeParse(raw);
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'That is not an email address.');
  return parsed.data;
}

/** `add`'s arguments: one address and a role (the first operator is an owner, whatever is asked). */
export function addArgs(args: string[]): { email: string; role: OperatorRole | undefined } {
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

export function roleArg(raw: string): OperatorRole {
  const parsed = operatorRoleSchema.safeParse(raw);
  if (!parsed.success) throw new CliError(parsed.error.issues[0]?.message ?? 'That is not a role.');
  return parsed.data;
}
