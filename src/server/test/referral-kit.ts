import type { LightMyRequestResponse } from 'fastify';
import { pagePaths } from '../../shared/paths.ts';
import type { Locale } from '../../shared/locales.ts';
import { localePath } from '../../shared/locale-paths.ts';
import type { memoryMailer, TestApp } from './built-app.ts';
import { postSignupJson, visitPage } from './visitor.ts';

// Invite links' tests (features/referrals): people signing up from a network of their own (the app
// is built with TRUST_PROXY=true, so X-Forwarded-For is the client), confirming through the link in
// their email, and their invite pages. docs/decisions/0060-referral-invites.md

type Mailer = ReturnType<typeof memoryMailer>;

/** The env a referrals test app needs: the client's address from X-Forwarded-For. */
export const referralTestEnv = { TRUST_PROXY: 'true' } as const;

/** Signs `email` up from `ip`, through `invite` if given, as the hydrated form does. */
export async function signUpFrom(
  t: TestApp,
  p: { email: string; ip: string; invite?: string; locale?: Locale },
): Promise<LightMyRequestResponse> {
  const visitor = await visitPage(t.app);
  t.clock.advance(4000);
  const res = await postSignupJson(
    t.app,
    visitor,
    {
      name: 'Friend',
      email: p.email,
      ...(p.invite === undefined ? {} : { invite: p.invite }),
      ...(p.locale ? { locale: p.locale } : {}),
    },
    { 'x-forwarded-for': p.ip },
  );
  if (res.statusCode !== 200) throw new Error(`sign-up answered ${res.statusCode}: ${res.body}`);
  return res;
}

/** The confirmation link's token last mailed to `email` (the outbox is run first). */
export async function confirmTokenOf(t: TestApp, mailer: Mailer, email: string): Promise<string> {
  await t.app.jobs.runOnce('outbox');
  const mail = mailer.sent.filter((m) => m.to === email).at(-1);
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link mailed to ${email}`);
  return token;
}

/** Presses `email`'s confirmation link from `ip`: the confirmed page. */
export async function confirmFrom(
  t: TestApp,
  mailer: Mailer,
  p: { email: string; ip: string; locale?: Locale },
): Promise<LightMyRequestResponse> {
  const token = await confirmTokenOf(t, mailer, p.email);
  return t.app.inject({
    method: 'POST',
    url: localePath(p.locale ?? 'en', pagePaths.confirm),
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'x-forwarded-for': p.ip },
    payload: new URLSearchParams({ token }).toString(),
  });
}

/** Signs up and confirms: the confirmed page. */
export async function joinFrom(
  t: TestApp,
  mailer: Mailer,
  p: { email: string; ip: string; invite?: string },
): Promise<LightMyRequestResponse> {
  await signUpFrom(t, p);
  return confirmFrom(t, mailer, p);
}

/** The invite code a confirmed page (or invite page) shows, from its invite link. */
export function inviteCodeIn(html: string): string {
  const code = /\?invite=([A-Za-z0-9_-]{22})/.exec(html)?.[1];
  if (!code) throw new Error('no invite link on the page');
  return code;
}

/** The invite page's signed address a confirmed page links to (path and query). */
export function invitePagePathIn(html: string): string {
  const href = /href="(https?:\/\/[^"]*\/invite\?[^"]+)"/.exec(html)?.[1];
  if (!href) throw new Error('no invite page link on the page');
  const url = new URL(href.replaceAll('&amp;', '&'));
  return url.pathname + url.search;
}

/** The count an invite block shows. */
export function inviteCountIn(html: string): number {
  const n = /data-invite-count="(\d+)"/.exec(html)?.[1];
  if (n === undefined) throw new Error('no invite count on the page');
  return Number(n);
}
