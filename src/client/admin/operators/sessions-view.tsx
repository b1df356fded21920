import { useCallback, useEffect, useState } from 'react';
import type { SessionEntry, SessionsReply } from '../../../shared/admin/sessions-schema.ts';
import type { ApiResult } from '../../lib/http.ts';
import { ActionHead } from '../console/action-head.tsx';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { Notice } from '../console/field.tsx';
import { PasskeysSection } from './passkeys.tsx';
import { formatTime } from '../console/format.ts';
import { endAllSessionsContract, endSessionContract, sessionsContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

/**
 * The operator's signed-in sessions: where (browser and system), since when, last seen; end any or
 * all. Below them, the operator's passkeys.
 */
export function SessionsView() {
  const { withFreshProof, signedOut } = useConsole();
  const read = useApiData();
  const [sessions, setSessions] = useState<SessionEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const show = useCallback(
    (result: ApiResult<SessionsReply>) => {
      const { data, error: failed } = read(result);
      setError(failed);
      if (data) setSessions(data.sessions);
    },
    [read],
  );
  const load = useCallback(() => callContract(sessionsContract, {}).then(show), [show]);

  useEffect(() => {
    void callContract(sessionsContract, {}).then(show);
  }, [show]);

  async function end(session: SessionEntry) {
    const { data, error: failed } = read(await callContract(endSessionContract, { body: { id: session.id } }));
    setError(failed);
    if (data?.signedOut) return signedOut('You ended this session: you are signed out.');
    if (data) setStatus(`Ended the session in ${session.browser}.`);
    await load();
  }

  async function endAll() {
    const result = await withFreshProof(() => callContract(endAllSessionsContract, { body: {} }));
    if (result.ok)
      return signedOut(
        `Signed out everywhere (${result.data.ended} session${result.data.ended === 1 ? '' : 's'} ended).`,
      );
    if (result.error.code !== 'fresh_proof_required') setError(read(result).error);
  }

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Sessions</h1>
      <p className="cs-muted">
        Where you are signed in. A session ends after 30 minutes without use, and 12 hours after signing in.
      </p>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{status}</Notice>
      {sessions === null ? (
        <p>Loading…</p>
      ) : (
        <div className="cs-table-wrap">
          <table className="cs-table">
            <caption className="cs-visually-hidden">Your active sessions</caption>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <ActionHead />
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td data-label="Browser">
                    {s.browser}
                    {s.current ? <strong className="cs-badge">This session</strong> : null}
                  </td>
                  <td data-label="Signed in">{formatTime(s.createdAt)}</td>
                  <td data-label="Last seen">{formatTime(s.lastSeenAt)}</td>
                  <td>
                    <button type="button" className="cs-secondary" onClick={() => void end(s)}>
                      {s.current ? 'Sign out here' : 'End session'}
                      <span className="cs-visually-hidden">{` (${s.browser}, signed in ${formatTime(s.createdAt)})`}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="cs-actions">
        <button type="button" className="cs-danger" onClick={() => void endAll()}>
          Sign out everywhere
        </button>
      </div>
      <PasskeysSection />
    </section>
  );
}
