import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { SignupMessages } from '../../../shared/messages/signup.ts';
import {
  fieldErrorText,
  parseSignup,
  signupFields,
  signupInputs,
  signupContract,
  signupReplyErrors,
  type SignupField,
  type SignupFieldErrors,
  type SignupView,
} from '../../../shared/signup-schema.ts';
import type { Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { callContract } from '../../lib/call-contract.ts';
import { ensureXsrfCookie } from '../../lib/http.ts';

type Status = 'idle' | 'sending' | 'success' | 'error';

// Works as a plain form POST (the server answers with this page and `initial` filled in); once
// its island has hydrated, it validates with the shared schema and sends JSON without a reload.
// It is the only code on the page that needs zod/mini and the HTTP helper, so they load with it.
export function SignupForm({
  initial,
  words,
  locale,
  invite,
}: {
  initial?: SignupView | undefined;
  words: SignupMessages;
  /** The page's locale: the no-JavaScript answer and the privacy link are its pages. */
  locale: Locale;
  /** The code of the friend's invite link the visitor came through: sent with the form. */
  invite?: string | undefined;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [status, setStatus] = useState<Status>(initial ? initial.status : 'idle');
  const [message, setMessage] = useState(initial?.message ?? '');
  const [errors, setErrors] = useState<SignupFieldErrors>(initial?.errors ?? {});
  const [focusTick, setFocusTick] = useState(0);
  const values = initial?.values;

  // Our messages replace the browser's own bubbles once JavaScript runs (set after hydration so
  // server and client markup stay identical).
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
    // The page's loader already asked for the cookies at idle time (entry-client.ts); this only
    // matters if that request failed, and shares it if it is still on its way.
    void ensureXsrfCookie().catch(() => undefined);
  }, []);

  useEffect(() => {
    if (focusTick === 0) return;
    const first = signupFields.find((f) => errors[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }, [focusTick, errors]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending') return;
    const form = event.currentTarget;
    const data = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']),
    );
    const checked = parseSignup(data);
    if (!checked.ok) {
      setErrors(checked.errors);
      setStatus('error');
      setMessage(words.invalid);
      setFocusTick((t) => t + 1);
      return;
    }
    setErrors({});
    setStatus('sending');
    setMessage(words.sending);
    const res = await callContract(signupContract, { body: checked.data });
    if (res.ok) {
      setStatus('success');
      setMessage(res.data.message);
      form.reset();
      return;
    }
    setStatus('error');
    setErrors(signupReplyErrors(res.error.fields));
    setMessage(res.error.message);
    setFocusTick((t) => t + 1);
  }

  const fieldProps = (field: SignupField) => {
    const error = errors[field];
    return {
      id: `signup-${field}`,
      name: field,
      defaultValue: values?.[field] ?? '',
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `signup-${field}-error` : undefined,
    };
  };
  const errorText = (field: SignupField) => {
    const error = errors[field];
    return error ? (
      <p className="field-error" id={`signup-${field}-error`}>
        {fieldErrorText(words, error)}
      </p>
    ) : null;
  };

  return (
    <form
      ref={formRef}
      className="signup-form"
      method="post"
      action={`${pagePaths.signup}#stay-updated`}
      onSubmit={onSubmit}
      aria-busy={status === 'sending'}
    >
      {signupFields.map((field) => {
        const spec = signupInputs[field];
        const limits = { required: spec.required, maxLength: spec.maxLength };
        return (
          <div className="field" key={field}>
            <label htmlFor={`signup-${field}`}>
              {words.labels[field]}
              {spec.required ? null : (
                <>
                  {' '}
                  <span className="optional">{words.optional}</span>
                </>
              )}
            </label>
            {spec.kind === 'textarea' ? (
              <textarea {...fieldProps(field)} rows={5} {...limits} />
            ) : (
              <input
                {...fieldProps(field)}
                type={spec.kind}
                {...(spec.autoComplete ? { autoComplete: spec.autoComplete } : {})}
                {...(spec.inputMode ? { inputMode: spec.inputMode } : {})}
                {...limits}
              />
            )}
            {errorText(field)}
          </div>
        );
      })}
      {/* Honeypot: off-screen and out of the tab order; people never fill it, bots do. */}
      <div className="hp" aria-hidden="true">
        <label htmlFor="signup-website">{words.labels.website}</label>
        <input id="signup-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {/* The page's language: the answer and every email to this person are written in it. */}
      <input type="hidden" name="locale" value={locale} />
      {/* The friend's invite code, if the visitor came through their link (either way of sending). */}
      {invite ? <input type="hidden" name="invite" value={invite} /> : null}
      <p className="consent">
        {words.consent} <a href={localePath(locale, pagePaths.privacy)}>{words.privacyLink}</a>
      </p>
      <button className="button button-primary" type="submit" disabled={status === 'sending'}>
        {status === 'sending' ? words.sending : words.submit}
      </button>
      <p className={`form-status form-status-${status}`} role="status">
        {message}
      </p>
    </form>
  );
}
