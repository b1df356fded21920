import { apiErrorSchema } from '../../../shared/api-error.ts';
import { fillPath, type FileContract } from '../../../shared/route-contract.ts';
import { xsrf } from '../../../shared/xsrf.ts';
import type { CallInput } from '../../lib/call-contract.ts';
import { connectionWords } from '../../../../content/messages/en/connection.ts';
import type { ApiResult } from '../../lib/http.ts';
import { ensureXsrfCookie, readCookie } from '../../lib/xsrf-cookie.ts';

// Downloads the console makes: a POST (the server audits an export, and nothing acts on a GET)
// with the XSRF header, whose reply is saved as a file. Never a token in a URL: the address of a
// download lands in logs and the browser's history. Chromium keeps a large Blob on disk, not in
// memory, so even the whole list's CSV is fine to hold as one.

/**
 * Calls the download `contract` describes (its body as JSON) and answers the reply's bytes and
 * file name, or the error in words.
 */
export async function postForFile<C extends FileContract>(
  contract: C,
  input: CallInput<C>,
): Promise<ApiResult<{ blob: Blob; filename: string }>> {
  const { params, body } = input as { params?: Record<string, string>; body?: unknown };
  const path = fillPath(contract.path, params);
  const send = async () => {
    await ensureXsrfCookie();
    return fetch(path, {
      method: contract.method,
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        [xsrf.header]: readCookie(xsrf.hostCookie) ?? readCookie(xsrf.cookie) ?? '',
      },
      body: JSON.stringify(body ?? {}),
    });
  };
  let res: Response;
  let blob: Blob;
  try {
    res = await send();
    if (!res.ok) {
      const parsed = apiErrorSchema.safeParse(await res.json().catch(() => undefined));
      const error = parsed.success
        ? parsed.data.error
        : { code: 'internal' as const, message: 'The download failed. Please try again.' };
      return { ok: false, status: res.status, error, retryAfter: null };
    }
    // Rejects when the server cuts the stream short (a failure mid-export): never a short file.
    blob = await res.blob();
  } catch {
    return { ok: false, status: 0, error: { code: 'unavailable', message: connectionWords.offline }, retryAfter: null };
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { ok: true, status: res.status, data: { blob, filename } };
}

/** Hands a Blob to the browser's download (an object URL on an <a download>, then let go). */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
