// People who sign up and confirm over plain HTTP, as the hydrated form and the confirmation page
// do, without a browser. A browser test uses them for the people its scenario needs but does not
// watch: each browser context costs seconds to open and hydrate on a slow machine, a request costs
// milliseconds, and the server cannot tell them apart (the same routes, cookies and XSRF header).
// What a person sees stays in the browser.
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { pagePaths, apiPaths } from '../src/shared/paths.ts';
import { xsrf } from '../src/shared/xsrf.ts';
import { waitForMail } from './outbox.ts';

/** The project's server (its use.baseURL in playwright.config.ts). */
function baseUrl(): string {
  const url = test.info().project.use.baseURL;
  if (!url) throw new Error(`Project ${test.info().project.name} has no baseURL`);
  return url;
}

/** A visitor's own HTTP client from `ip` (the e2e servers trust X-Forwarded-For), with a cookie jar. */
async function visitorFrom(ip: string): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: { 'x-forwarded-for': ip } });
}

/** Signs `email` up from `ip`, through `invite` when given, as the hydrated form posts it. */
export async function signUpOverHttp(p: { email: string; ip: string; invite?: string }): Promise<void> {
  const visitor = await visitorFrom(p.ip);
  try {
    // The form's island asks for its cookies (the XSRF token and the fill-time mark) at every load.
    expect((await visitor.get(apiPaths.csrf)).ok()).toBe(true);
    const cookies = (await visitor.storageState()).cookies;
    const token = cookies.find((c) => c.name === xsrf.hostCookie || c.name === xsrf.cookie)?.value ?? '';
    const res = await visitor.post(pagePaths.signup, {
      headers: { accept: 'application/json', 'sec-fetch-site': 'same-origin', [xsrf.header]: token },
      data: { name: 'Friend', email: p.email, ...(p.invite ? { invite: p.invite } : {}) },
    });
    expect(res.status(), await res.text()).toBe(200);
  } finally {
    await visitor.dispose();
  }
}

/** Presses the confirmation email's button from `ip`: the confirmed page's HTML. */
export async function confirmOverHttp(p: { email: string; ip: string }): Promise<string> {
  const mail = await waitForMail(p.email);
  const token = new URL(mail.confirmUrl).searchParams.get('token') ?? '';
  const visitor = await visitorFrom(p.ip);
  try {
    const res = await visitor.post(pagePaths.confirm, { headers: { accept: 'text/html' }, form: { token } });
    expect(res.status()).toBe(200);
    return await res.text();
  } finally {
    await visitor.dispose();
  }
}

/** Signs up through `invite` and confirms, both from `ip`: the confirmed page's HTML. */
export async function joinOverHttp(p: { email: string; ip: string; invite?: string }): Promise<string> {
  await signUpOverHttp(p);
  return confirmOverHttp(p);
}

/** The invite link and the signed invite page's path a confirmed page shows. */
export function inviteLinksIn(html: string): { url: string; code: string; invitePage: string } {
  const url = /https?:\/\/[^"\s<]+\/\?invite=([A-Za-z0-9_-]{22})/.exec(html);
  const page = /href="(https?:\/\/[^"]*\/invite\?[^"]+)"/.exec(html)?.[1];
  if (!url?.[1] || !page) throw new Error('no invite link on the confirmed page');
  const pageUrl = new URL(page.replaceAll('&amp;', '&'));
  return { url: url[0], code: url[1], invitePage: pageUrl.pathname + pageUrl.search };
}
