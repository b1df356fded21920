/** The words of an error, for a log line or an operator: its message, never its stack. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
