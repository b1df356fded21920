import { useCallback, useEffect, useState } from 'react';
import type { OperatorSession } from '../../../shared/admin/sign-in-schema.ts';
import { ConsoleShell } from './console-shell.tsx';
import { SecondStepScreen, SignInScreen } from '../operators/sign-in-screen.tsx';
import { sessionContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

/** Marks the console's root; the public page's build is checked never to contain it. */
const CONSOLE_MARKER = 'dh-operators-console';

type Stage =
  | { kind: 'loading' }
  | { kind: 'signed-out'; notice: string | null }
  | { kind: 'second-step' }
  | SignedIn
  | { kind: 'unreachable'; message: string };

/**
 * One signed-in visit. `end` signs this visit out and nothing else: an answer that arrives late
 * (a 401 to a call made before the operator signed out, or before they signed in again) finds
 * another stage showing and changes nothing, so the first ending's words stay on screen.
 */
interface SignedIn {
  kind: 'signed-in';
  session: OperatorSession;
  end(notice: string): void;
}

/**
 * Asks the server who is signed in (the only judge: nothing about the sign-in lives in the
 * browser), then shows the sign-in steps or the console.
 */
export function ConsoleApp() {
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });

  const signedIn = useCallback((session: OperatorSession) => {
    const visit: SignedIn = {
      kind: 'signed-in',
      session,
      end: (notice) => setStage((current) => (current === visit ? { kind: 'signed-out', notice } : current)),
    };
    setStage(visit);
  }, []);

  useEffect(() => {
    void callContract(sessionContract, {}).then((result) => {
      if (result.ok) signedIn(result.data);
      else if (result.status === 401) setStage({ kind: 'signed-out', notice: null });
      else setStage({ kind: 'unreachable', message: result.error.message });
    });
  }, [signedIn]);

  const signedOut = useCallback((notice: string) => setStage({ kind: 'signed-out', notice }), []);

  let screen;
  switch (stage.kind) {
    case 'loading':
      screen = <p className="cs-loading">Loading…</p>;
      break;
    case 'unreachable':
      screen = (
        <main className="cs-auth">
          <h1>The console is not reachable</h1>
          <p role="alert">{stage.message}</p>
        </main>
      );
      break;
    case 'signed-out':
      screen = <SignInScreen notice={stage.notice} onPassword={() => setStage({ kind: 'second-step' })} />;
      break;
    case 'second-step':
      screen = <SecondStepScreen onSignedIn={signedIn} onRestart={signedOut} />;
      break;
    case 'signed-in':
      screen = (
        <ConsoleShell
          email={stage.session.operator.email}
          role={stage.session.operator.role}
          recoveryCodesLeft={stage.session.recoveryCodesLeft}
          onSignedOut={stage.end}
        />
      );
  }
  return (
    <div className="cs-root" data-app={CONSOLE_MARKER}>
      {screen}
    </div>
  );
}
