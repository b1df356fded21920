import type { ComponentProps } from 'react';

/** A labelled input with its error beside it (announced, and tied to the input). */
export function Field(
  props: ComponentProps<'input'> & { id: string; label: string; error?: string | undefined; hint?: string },
) {
  const { label, error, hint, id, ...input } = props;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="cs-field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="cs-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {error ? (
        <p className="cs-field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A message the screen reader reads when it changes. */
export function Notice({ kind, children }: { kind: 'error' | 'info'; children: string | null }) {
  return (
    <p className={`cs-notice cs-notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'} hidden={!children}>
      {children}
    </p>
  );
}
