import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import { adminPaths } from '../../../shared/paths.ts';
import type { ApiResult } from '../../lib/http.ts';
import { ConsoleContext, type ConsoleContextValue } from './console-context.tsx';
import { consoleViews, homeViewFor, viewsFor } from './console-views.tsx';
import { FreshProofPrompt } from '../operators/fresh-proof.tsx';
import { signOutContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

/** The signed-in console: header (who, sign out), navigation, the current view, the fresh-proof prompt. */
export function ConsoleShell({
  email,
  role,
  recoveryCodesLeft,
  onSignedOut,
}: {
  email: string;
  role: OperatorRole;
  recoveryCodesLeft: number;
  onSignedOut: (message: string) => void;
}) {
  const [location] = useLocation();
  const views = viewsFor(role);
  const [proofOpen, setProofOpen] = useState(false);
  const pending = useRef<((proven: boolean) => void) | null>(null);
  // While the operator's own sign-out is on its way, a 401 to another call is that sign-out seen
  // early: its words ("You are signed out.") are the ones to show, not the expired-session ones.
  const signingOut = useRef(false);

  const askForProof = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        pending.current = resolve;
        setProofOpen(true);
      }),
    [],
  );

  const value = useMemo<ConsoleContextValue>(
    () => ({
      email,
      role,
      signedOut(message) {
        if (!signingOut.current) onSignedOut(message);
      },
      async withFreshProof<T>(action: () => Promise<ApiResult<T>>) {
        const first = await action();
        if (first.ok || first.error.code !== 'fresh_proof_required') return first;
        return (await askForProof()) ? action() : first;
      },
    }),
    [email, role, onSignedOut, askForProof],
  );

  function proofDone(proven: boolean, signedOutMessage?: string) {
    setProofOpen(false);
    pending.current?.(proven);
    pending.current = null;
    if (signedOutMessage) onSignedOut(signedOutMessage);
  }

  async function signOut() {
    signingOut.current = true;
    const result = await callContract(signOutContract, { body: {} });
    onSignedOut(result.ok ? result.data.message : 'You are signed out.');
  }

  return (
    <ConsoleContext.Provider value={value}>
      <a className="cs-skip" href="#console-main">
        Skip to content
      </a>
      <header className="cs-header">
        <p className="cs-brand">Console</p>
        <nav aria-label="Console">
          <ul>
            {views.map((v) => (
              <li key={v.path}>
                <Link href={v.path} aria-current={location === v.path ? 'page' : undefined}>
                  {v.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="cs-who">
          <span className="cs-email">{email}</span>
          <span className="cs-role">{role}</span>
          <button type="button" className="cs-secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="console-main" tabIndex={-1} className="cs-main">
        {recoveryCodesLeft <= 3 ? (
          <p className="cs-notice cs-notice-info" role="status">
            {`Only ${recoveryCodesLeft} recovery code${recoveryCodesLeft === 1 ? '' : 's'} left. Ask for new ones with \`npm run operator -- reset-2fa\`.`}
          </p>
        ) : null}
        <Switch>
          {views.map((v) => (
            <Route key={v.path} path={v.path} component={v.Component} />
          ))}
          <Route path={adminPaths.home}>
            <Redirect to={homeViewFor(role)} replace />
          </Route>
          <Route>
            <p>
              {consoleViews.some((v) => v.path === location)
                ? `This page is not open to your role (${role}).`
                : 'There is no such page in the console.'}
            </p>
          </Route>
        </Switch>
      </main>
      <FreshProofPrompt open={proofOpen} onDone={proofDone} />
    </ConsoleContext.Provider>
  );
}
