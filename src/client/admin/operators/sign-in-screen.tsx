import { useEffect, useRef, useState, type FormEvent } from 'react';
import { secondFactorSchema, signInSchema, type OperatorSession } from '../../../shared/admin/sign-in-schema.ts';
import type { AuthenticationOptions } from '../../../shared/admin/passkey-schema.ts';
import type { ApiResult } from '../../lib/http.ts';
import { Field, Notice } from '../console/field.tsx';
import { answerWithPasskey } from './passkeys.tsx';
import { secondFactorContract, signInContract, signInPasskeyOptionsContract } from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';

// Signing in: email and password, then a code from the authenticator app, a recovery code, or a
// passkey (offered when the operator has one).
// Nothing about it is kept in the browser but the server's HttpOnly cookies.

const formValues = (form: HTMLFormElement): Record<string, string> =>
  Object.fromEntries([...new FormData(form).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']));

/** The refusal's words, with the wait counted down when the server sent Retry-After. */
function useRefusal() {
  const [message, setMessage] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const waiting = secondsLeft > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, [waiting]);
  const show = (result: ApiResult<unknown>) => {
    setMessage(result.ok ? null : result.error.message);
    setSecondsLeft(!result.ok && result.status === 429 && result.retryAfter ? result.retryAfter : 0);
  };
  return { message, show, clear: () => setMessage(null), waiting, secondsLeft };
}

export function SignInScreen({ notice, onPassword }: { notice: string | null; onPassword: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refusal = useRefusal();
  const emailRef = useRef<HTMLInputElement>(null);

  useEffect(() => emailRef.current?.focus(), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || refusal.waiting) return;
    const values = formValues(event.currentTarget);
    const checked = signInSchema.safeParse(values);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await callContract(signInContract, { body: checked.data });
    setBusy(false);
    refusal.show(result);
    if (result.ok) onPassword();
    else setErrors(result.error.fields ?? {});
  }

  return (
    <main className="cs-auth" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to the console</h1>
      <Notice kind="info">{notice}</Notice>
      <form onSubmit={onSubmit} noValidate>
        <Field
          ref={emailRef}
          id="sign-in-email"
          name="email"
          type="email"
          label="Email"
          autoComplete="username"
          required
          error={errors.email}
        />
        <Field
          id="sign-in-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <Notice kind="error">
          {refusal.message && refusal.waiting ? `${refusal.message} (${refusal.secondsLeft} s)` : refusal.message}
        </Notice>
        <button type="submit" disabled={busy || refusal.waiting}>
          {busy ? 'Checking…' : 'Continue'}
        </button>
      </form>
    </main>
  );
}

export function SecondStepScreen({
  onSignedIn,
  onRestart,
}: {
  onSignedIn: (s: OperatorSession) => void;
  onRestart: (message: string) => void;
}) {
  const [method, setMethod] = useState<'totp' | 'recovery'>('totp');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const refusal = useRefusal();
  const codeRef = useRef<HTMLInputElement>(null);
  const [hasPasskey, setHasPasskey] = useState(false);
  // The first challenge, asked for on arrival: its answer (200, or 404 when the operator has no
  // passkey) says whether to offer one. Each later try asks for a challenge of its own.
  const firstOptions = useRef<AuthenticationOptions | null>(null);

  useEffect(() => codeRef.current?.focus(), [method]);

  useEffect(() => {
    void callContract(signInPasskeyOptionsContract, { body: {} }).then((r) => {
      firstOptions.current = r.ok ? r.data : null;
      setHasPasskey(r.ok);
    });
  }, []);

  async function signInWithPasskey() {
    if (busy || refusal.waiting) return;
    setBusy(true);
    setFieldError(undefined);
    const ready = firstOptions.current;
    firstOptions.current = null;
    const answer = await answerWithPasskey(signInPasskeyOptionsContract, ready);
    if (!answer.ok) {
      setBusy(false);
      if (answer.result?.status === 401) return onRestart(answer.message);
      return refusal.show(
        answer.result ?? {
          ok: false,
          status: 0,
          error: { code: 'bad_request', message: answer.message },
          retryAfter: null,
        },
      );
    }
    const result = await callContract(secondFactorContract, { body: { method: 'passkey', response: answer.response } });
    setBusy(false);
    if (result.ok) return onSignedIn(result.data);
    if (result.status === 401) return onRestart(result.error.message);
    refusal.show(result);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || refusal.waiting) return;
    const checked = secondFactorSchema.safeParse({ method, code: formValues(event.currentTarget).code ?? '' });
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message);
      return;
    }
    setFieldError(undefined);
    setBusy(true);
    const result = await callContract(secondFactorContract, { body: checked.data });
    setBusy(false);
    if (result.ok) return onSignedIn(result.data);
    if (result.status === 401) return onRestart(result.error.message);
    if (result.error.fields?.code) {
      refusal.clear();
      setFieldError(result.error.fields.code);
      codeRef.current?.select();
    } else refusal.show(result);
  }

  const totp = method === 'totp';
  return (
    <main className="cs-auth" aria-labelledby="second-step-title">
      <h1 id="second-step-title">{totp ? 'Enter your authenticator code' : 'Enter a recovery code'}</h1>
      {hasPasskey ? (
        <div className="cs-actions">
          <button type="button" disabled={busy || refusal.waiting} onClick={() => void signInWithPasskey()}>
            Use a passkey
          </button>
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate key={method}>
        {totp ? (
          <Field
            ref={codeRef}
            id="second-step-code"
            name="code"
            label="6-digit code"
            hint="From the authenticator app you set up for this console."
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            error={fieldError}
          />
        ) : (
          <Field
            ref={codeRef}
            id="second-step-code"
            name="code"
            label="Recovery code"
            hint="One of the ten codes you were given with your account. Each works once."
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={20}
            required
            error={fieldError}
          />
        )}
        <Notice kind="error">
          {refusal.message && refusal.waiting ? `${refusal.message} (${refusal.secondsLeft} s)` : refusal.message}
        </Notice>
        <button type="submit" disabled={busy || refusal.waiting}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <button
        type="button"
        className="cs-link"
        onClick={() => {
          setFieldError(undefined);
          setMethod(totp ? 'recovery' : 'totp');
        }}
      >
        {totp ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
      </button>
    </main>
  );
}
