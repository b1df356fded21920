// The two ways the operator command stops on purpose (main in scripts/operator.ts turns each into
// its exit code): neither prints a stack, since the person at the terminal can act on the words.

/** A failure the person at the terminal can fix: printed without a stack, exit code 1. */
export class CliError extends Error {}
/** Wrong use of the command: usage printed, exit code 2. */
export class UsageError extends Error {}
