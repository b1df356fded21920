import { brotliDecompressSync, gunzipSync } from 'node:zlib';

// What the home page through an invite link adds to the page from memory: the line that a friend
// invited the visitor, and the code twice (the sign-up island's props, the plain form's hidden
// field). Taking exactly those out must give the page from memory back, byte for byte.

/** `html` with the invite's line and `code`'s two places taken out. */
export function withoutInvite(html: string, code: string): string {
  return html
    .replace(/<p class="invited-line" role="note"><a href="#stay-updated">[^<]*<\/a><\/p>/, '')
    .replace(`,&quot;invite&quot;:&quot;${code}&quot;`, '')
    .replace(`<input type="hidden" name="invite" value="${code}"/>`, '');
}

/** A response body as the browser reads it, whatever coding it came in. */
export const decodedBody = (res: { headers: Record<string, unknown>; rawPayload: Buffer }): string => {
  const coding = res.headers['content-encoding'];
  const bytes = res.rawPayload;
  return (coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : bytes).toString();
};
