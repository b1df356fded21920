import { useEffect, useRef, useState, type FormEvent } from 'react';
import { freshProofSchema } from '../../../shared/admin/sign-in-schema.ts';
import { Field, Notice } from '../console/field.tsx';
import { answerWithPasskey } from './passkeys.tsx';
import {
  freshProofContract,
  freshProofPasskeyContract,
  freshProofPasskeyOptionsContract,
  passkeysContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

/**
 * Asks for a code from the authenticator app (or a passkey, when the operator has one) before an action the server guards with fresh proof
 * (sending, exporting, erasing, signing out everywhere). A modal <dialog>: the browser keeps focus
 * inside it and closes it on Escape. Views do not use it directly: `useConsole().withFreshProof`.
 */
export function FreshProofPrompt({
  open,
  onDone,
}: {
  open: boolean;
  onDone: (proven: boolean, signedOutMessage?: string) => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [hasPasskey, setHasPasskey] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setError(undefined);
      setRefusal(null);
      dialog.showModal();
      codeRef.current?.focus();
      // Offered only to an operator who has one; the server decides either way.
      void callContract(passkeysContract, {}).then((r) => setHasPasskey(r.ok && r.data.passkeys.length > 0));
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  async function proveWithPasskey() {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setRefusal(null);
    const answer = await answerWithPasskey(freshProofPasskeyOptionsContract);
    const result = answer.ok
      ? await callContract(freshProofPasskeyContract, { body: { response: answer.response } })
      : answer.result;
    setBusy(false);
    if (result?.ok) return onDone(true);
    if (result?.status === 401) return onDone(false, result.error.message);
    setRefusal(result && !result.ok ? result.error.message : answer.ok ? null : answer.message);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const code = new FormData(form).get('code');
    const checked = freshProofSchema.safeParse({ code: typeof code === 'string' ? code : '' });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setBusy(true);
    const result = await callContract(freshProofContract, { body: checked.data });
    setBusy(false);
    if (result.ok) {
      form.reset();
      return onDone(true);
    }
    if (result.status === 401) return onDone(false, result.error.message);
    if (result.error.fields?.code) {
      setRefusal(null);
      setError(result.error.fields.code);
      codeRef.current?.select();
    } else {
      setError(undefined);
      setRefusal(result.error.message);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className="cs-dialog"
      aria-labelledby="fresh-proof-title"
      aria-describedby="fresh-proof-why"
      // Escape, or the browser closing it: the action is not done.
      onCancel={(e) => {
        e.preventDefault();
        onDone(false);
      }}
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id="fresh-proof-title">Confirm it is you</h2>
        <p id="fresh-proof-why">
          {hasPasskey
            ? 'This action needs a code from your authenticator app, or your passkey, in the last five minutes.'
            : 'This action needs a code from your authenticator app entered in the last five minutes.'}
        </p>
        <Field
          ref={codeRef}
          id="fresh-proof-code"
          name="code"
          label="6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          required
          error={error}
        />
        <Notice kind="error">{refusal}</Notice>
        <div className="cs-actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Confirm'}
          </button>
          {hasPasskey ? (
            <button type="button" className="cs-secondary" disabled={busy} onClick={() => void proveWithPasskey()}>
              Use a passkey
            </button>
          ) : null}
          <button type="button" className="cs-secondary" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
