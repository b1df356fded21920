import type {
  AllowlistJoinReply,
  AllowlistLinkBody,
  AllowlistStatus,
  ChallengeBody,
  ChallengeReply,
  SignedMessage,
} from '../../../shared/allowlist/allowlist-schema.ts';
import type { MessageReply } from '../../../shared/api-error.ts';
import { apiPaths } from '../../../shared/paths.ts';
import { fillPath } from '../../../shared/route-contract.ts';
import { xsrf } from '../../../shared/xsrf.ts';
import { answerLanguage } from '../../lib/answer-language.ts';
import { ensureXsrfCookie, readCookie } from '../../lib/xsrf-cookie.ts';

// The island's calls to the allowlist's routes. Their contracts (src/shared/allowlist/) are the
// schemas the server checks requests and replies with; here only their types are used, because
// zod (and the console's HTTP helper) would triple the island's bytes. The beacon does the same
// (decision 0033). Relative URLs only: nothing leaves for a third party.

/** The server's refusal, in its own words (the one error shape). */
export class Refused extends Error {}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = answerLanguage();
  if (method === 'POST') {
    await ensureXsrfCookie();
    headers['content-type'] = 'application/json';
    headers[xsrf.header] = readCookie(xsrf.hostCookie) ?? readCookie(xsrf.cookie) ?? '';
  }
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const data = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
  if (!response.ok) throw new Refused(typeof data?.error?.message === 'string' ? data.error.message : '');
  return data as T;
}

export const allowlistApi = {
  status: (address: string) => call<AllowlistStatus>('GET', fillPath(apiPaths.allowlistStatus, { address })),
  challenge: (body: ChallengeBody) => call<ChallengeReply>('POST', apiPaths.allowlistChallenge, body),
  join: (body: SignedMessage) => call<AllowlistJoinReply>('POST', apiPaths.allowlistJoin, body),
  leave: (body: SignedMessage) => call<AllowlistStatus>('POST', apiPaths.allowlistLeave, body),
  link: (body: AllowlistLinkBody) => call<MessageReply>('POST', apiPaths.allowlistLink, body),
};
