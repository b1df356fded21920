import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SubscriberDetail } from '../../../shared/admin/subscribers.ts';
import { Notice } from '../console/field.tsx';

/** Erasing cannot be undone: the operator types the address back before the button works. */
export function EraseDialog(props: {
  open: boolean;
  person: SubscriberDetail;
  onCancel: () => void;
  onErase: (confirmEmail: string) => Promise<string | null>;
}) {
  const { open, person, onCancel, onErase } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setTyped('');
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const matches = typed.trim().toLowerCase() === person.email.toLowerCase();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!matches || busy) return;
    setBusy(true);
    setError(await onErase(typed));
    setBusy(false);
  }

  return (
    <dialog
      ref={dialogRef}
      className="cs-dialog"
      aria-labelledby="erase-title"
      aria-describedby="erase-why"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id="erase-title">Erase this person?</h2>
        <p id="erase-why">
          Their details, consent record and every email to them are deleted for good; this cannot be undone. Sign-up
          totals keep counting them, and the audit log records the erasure. Type their email address,{' '}
          <strong>{person.email}</strong>, to confirm.
        </p>
        <div className="cs-field">
          <label htmlFor="erase-email">Their email address</label>
          <input
            id="erase-email"
            name="confirmEmail"
            type="email"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
        </div>
        <Notice kind="error">{error}</Notice>
        <div className="cs-actions">
          <button type="submit" className="cs-danger" disabled={!matches || busy}>
            {busy ? 'Erasing…' : 'Erase for good'}
          </button>
          <button type="button" className="cs-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
