import { createContext, useCallback, useContext } from 'react';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import type { ApiResult } from '../../lib/http.ts';

// What every view of the console can use: who is signed in, a way to say "the server says we are
// signed out", and the fresh-proof wrapper for the actions that ask for a recent code.

export interface ConsoleContextValue {
  email: string;
  /** What the console shows this operator; the server decides what they may actually do. */
  role: OperatorRole;
  /** The server answered 401: show the sign-in again, with this message. */
  signedOut(message: string): void;
  /**
   * Runs `action`; when the server answers `fresh_proof_required`, asks for an authenticator code
   * (FreshProofPrompt) and runs it once more. Resolves with the last answer (the first one if the
   * operator cancelled the prompt).
   */
  withFreshProof<T>(action: () => Promise<ApiResult<T>>): Promise<ApiResult<T>>;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole is for views inside the console shell');
  return value;
}

/** Handles the answers every view handles alike: 401 signs out. Returns the data or null. */
export function useApiData() {
  const { signedOut } = useConsole();
  return useCallback(
    <T,>(result: ApiResult<T>): { data: T | null; error: string | null } => {
      if (result.ok) return { data: result.data, error: null };
      if (result.status === 401) signedOut(result.error.message);
      return { data: null, error: result.error.message };
    },
    [signedOut],
  );
}
