import readline from 'node:readline';
import QRCode from 'qrcode';
import { read } from 'read';
import { operatorEmailSchema } from '../../src/shared/admin/sign-in-schema.ts';
import {
  MIN_PASSWORD_LENGTH,
  passwordProblem,
  totpUri,
  type NewFactors,
} from '../../src/server/features/operators/index.ts';
import { CliError } from './cli-errors.ts';

// What the command asks of the person at the terminal (a password, an address typed again) and
// what it shows them once (the authenticator set-up and recovery codes). Each question is read
// from a prompt on a terminal, or a line of piped standard input, so a script can feed it.

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

/** Lets the process end: an open reader on standard input would keep it waiting. */
export function closeInput(): void {
  pipedReader?.close();
}

/**
 * A destructive command names its operator twice: the address typed (or piped) again must be the
 * same one, so a slip of the finger or of history does not remove the wrong person.
 */
export async function confirmAddress(email: string, what: string, yes: boolean): Promise<void> {
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

export async function askPassword(email: string): Promise<string> {
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

export async function printFactors(email: string, factors: NewFactors): Promise<void> {
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
