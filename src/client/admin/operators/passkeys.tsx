import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  passkeyNameSchema,
  type AddPasskeyRequest,
  type AuthenticationOptions,
  type AuthenticationResponse,
  type PasskeyEntry,
  type PasskeysReply,
} from '../../../shared/admin/passkey-schema.ts';
import type { ApiResult } from '../../lib/http.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import { Field, Notice } from '../console/field.tsx';
import { formatTime } from '../console/format.ts';
import type {
  freshProofPasskeyOptionsContract,
  signInPasskeyOptionsContract,
} from '../../../shared/admin/contracts.ts';
import {
  addPasskeyContract,
  passkeyRegistrationOptionsContract,
  passkeysContract,
  removePasskeyContract,
  renamePasskeyContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

// Passkeys in the console (decision 0030): the ceremony in the browser is @simplewebauthn/browser's;
// the server issues every challenge and decides every answer.

/** Why the browser's passkey prompt gave no answer, in words. */
function passkeyPromptMessage(error: unknown): string {
  if (!browserSupportsWebAuthn())
    return 'This browser cannot use passkeys. Please use a code from your authenticator app.';
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device or password manager holds one of your passkeys already.';
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey prompt was closed or timed out. Nothing was changed.';
  return error instanceof Error
    ? `The browser could not use a passkey: ${error.message}`
    : 'The browser could not use a passkey.';
}

/** The server's refusal to give a challenge (`result`), or the browser's prompt giving no answer (null). */
export type PasskeyAnswer =
  | { ok: true; response: AuthenticationResponse }
  | { ok: false; result: Extract<ApiResult<unknown>, { ok: false }> | null; message: string };

/**
 * Asks the server for a challenge from `optionsContract` (unless one is `ready`), then the browser for a
 * passkey's answer to it. The caller sends the answer where it belongs (the sign-in's second step,
 * or fresh proof).
 */
export async function answerWithPasskey(
  optionsContract: typeof signInPasskeyOptionsContract | typeof freshProofPasskeyOptionsContract,
  ready: AuthenticationOptions | null = null,
): Promise<PasskeyAnswer> {
  let optionsJSON = ready;
  if (!optionsJSON) {
    const options = await callContract(optionsContract, { body: {} });
    if (!options.ok) return { ok: false, result: options, message: options.error.message };
    optionsJSON = options.data;
  }
  try {
    return { ok: true, response: await startAuthentication({ optionsJSON }) };
  } catch (error) {
    return { ok: false, result: null, message: passkeyPromptMessage(error) };
  }
}

/** The operator's passkeys: add one (fresh proof), rename, remove (fresh proof). A part of the Sessions view. */
export function PasskeysSection() {
  const { withFreshProof } = useConsole();
  const read = useApiData();
  const [passkeys, setPasskeys] = useState<PasskeyEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);

  const show = useCallback(
    (result: ApiResult<PasskeysReply>) => {
      const { data, error: failed } = read(result);
      if (failed) setError(failed);
      if (data) setPasskeys(data.passkeys);
    },
    [read],
  );
  const load = () => callContract(passkeysContract, {}).then(show);

  useEffect(() => {
    void callContract(passkeysContract, {}).then(show);
  }, [show]);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const raw = new FormData(form).get('name');
    const name = passkeyNameSchema.safeParse(typeof raw === 'string' ? raw : '');
    if (!name.success) return setNameError(name.error.issues[0]?.message);
    setNameError(undefined);
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      const options = await withFreshProof(() => callContract(passkeyRegistrationOptionsContract, { body: {} }));
      if (!options.ok) {
        if (options.error.code !== 'fresh_proof_required') setError(read(options).error);
        return;
      }
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.data });
      } catch (prompt) {
        return setError(passkeyPromptMessage(prompt));
      }
      const body: AddPasskeyRequest = { name: name.data, response };
      const added = await withFreshProof(() => callContract(addPasskeyContract, { body }));
      const { data, error: failed } = read(added);
      if (failed && !(added.ok === false && added.error.code === 'fresh_proof_required')) setError(failed);
      if (data) {
        form.reset();
        setStatus(`Added the passkey “${data.passkey.name}”. You can use it to sign in and to confirm actions.`);
        await load();
      }
    } finally {
      setBusy(false);
    }
  }

  async function rename(event: FormEvent<HTMLFormElement>, passkey: PasskeyEntry) {
    event.preventDefault();
    const raw = new FormData(event.currentTarget).get('name');
    const checked = passkeyNameSchema.safeParse(typeof raw === 'string' ? raw : '');
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? null);
    const { data, error: failed } = read(
      await callContract(renamePasskeyContract, { params: { id: passkey.id }, body: { name: checked.data } }),
    );
    setError(failed);
    if (data) {
      setRenaming(null);
      setStatus(`Renamed “${passkey.name}” to “${data.passkey.name}”.`);
      await load();
    }
  }

  async function remove(passkey: PasskeyEntry) {
    setError(null);
    setStatus(null);
    const result = await withFreshProof(() =>
      callContract(removePasskeyContract, { params: { id: passkey.id }, body: {} }),
    );
    if (result.ok) {
      setStatus(result.data.message);
      await load();
    } else if (result.error.code !== 'fresh_proof_required') setError(read(result).error);
  }

  return (
    <section aria-labelledby="passkeys-title" className="cs-section">
      <h2 id="passkeys-title">Passkeys</h2>
      <p className="cs-muted">
        A passkey signs you in after your password and confirms actions, with your fingerprint, face or device PIN
        instead of a code. Your authenticator app keeps working too.
      </p>
      <Notice kind="error">{error}</Notice>
      <Notice kind="info">{status}</Notice>
      {passkeys === null ? (
        <p>Loading…</p>
      ) : passkeys.length === 0 ? (
        <p>You have no passkey yet.</p>
      ) : (
        <div className="cs-table-wrap">
          <table className="cs-table">
            <caption className="cs-visually-hidden">Your passkeys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="cs-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {passkeys.map((k) => (
                <tr key={k.id}>
                  <td data-label="Name">
                    {renaming === k.id ? (
                      <form onSubmit={(e) => void rename(e, k)} className="cs-inline-form">
                        <Field
                          id={`passkey-name-${k.id}`}
                          name="name"
                          label={`New name for “${k.name}”`}
                          defaultValue={k.name}
                          maxLength={60}
                          required
                        />
                        <button type="submit">Save name</button>
                      </form>
                    ) : (
                      <>
                        {k.name}
                        {k.synced ? <span className="cs-badge">Synced</span> : null}
                      </>
                    )}
                  </td>
                  <td data-label="Added">{formatTime(k.createdAt)}</td>
                  <td data-label="Last used">{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'Never'}</td>
                  <td>
                    <div className="cs-actions">
                      <button
                        type="button"
                        className="cs-secondary"
                        onClick={() => setRenaming(renaming === k.id ? null : k.id)}
                      >
                        {renaming === k.id ? 'Cancel' : 'Rename'}
                        <span className="cs-visually-hidden">{` “${k.name}”`}</span>
                      </button>
                      <button type="button" className="cs-danger" onClick={() => void remove(k)}>
                        Remove
                        <span className="cs-visually-hidden">{` “${k.name}”`}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={(e) => void add(e)} noValidate>
        <Field
          id="passkey-new-name"
          name="name"
          label="Name for a new passkey"
          hint="So you can tell your passkeys apart, like “Work laptop” or “Phone”."
          maxLength={60}
          required
          error={nameError}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Waiting for the passkey…' : 'Add a passkey'}
        </button>
      </form>
    </section>
  );
}
