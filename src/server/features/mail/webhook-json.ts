import { parse as secureParse } from 'secure-json-parse';
import { MalformedWebhook } from './webhooks.ts';

// How much of a provider's JSON the webhooks read, and how it is read. Two of the four providers
// (Mailgun, Amazon SES through SNS) put their proof inside the body, so their bodies are parsed
// before anyone is known to have sent them: the size and the nesting are bounded first, from
// what each provider documents, so a body built to cost (a megabyte of `[[[[…`) is refused
// without ever reaching JSON.parse. Postmark's credentials and SendGrid's signature are checked
// before their bodies are parsed (webhook-routes.ts); their limits hold all the same.

export interface WebhookLimit {
  /** The largest body taken (Fastify's bodyLimit for the route; nginx's client_max_body_size). */
  bodyBytes: number;
  /** The deepest nesting of arrays and objects taken (the top level is 1). */
  depth: number;
}

/**
 * Per provider, from its documented payloads (docs/decisions, the lead's record of this change):
 * - Postmark: one flat record, Metadata one level down (depth 2). 256 KiB leaves room for the
 *   bounce's `Content` dump when "Include bounce content" is on (we read none of it).
 * - Mailgun: `event-data` → `message` → `headers` / `attachments[]` (depth 4–5); a few KB, the
 *   SMTP reply and user variables the largest parts. 64 KiB.
 * - SendGrid: an array of flat events, `category` an array (depth 3). SendGrid posts a batch
 *   every 30 s or when it reaches 768 KB, so 1 MiB.
 * - SES through SNS: the SNS envelope is flat strings (`MessageAttributes` at depth 3); its
 *   `Message` is at most 256 KiB and is re-escaped as a JSON string (each `"` and `\` doubled),
 *   so 2 × 256 KiB plus the envelope's few hundred bytes: 520 KiB.
 */
export const webhookLimits = {
  postmark: { bodyBytes: 256 * 1024, depth: 8 },
  mailgun: { bodyBytes: 64 * 1024, depth: 10 },
  sendgrid: { bodyBytes: 1024 * 1024, depth: 8 },
  ses: { bodyBytes: 520 * 1024, depth: 4 },
} as const satisfies Record<string, WebhookLimit>;

/**
 * What a body over its route's limit is told: that route's own limit, from the same figure Fastify
 * enforces it with, in the sizes people read (1 MiB is "1 MB", 64 KiB "64 KB", as the site's
 * other answers say "16 KB").
 */
export function tooLargeWords(bodyBytes: number): string {
  const MiB = 1024 * 1024;
  const size =
    bodyBytes >= MiB && bodyBytes % MiB === 0 ? `${bodyBytes / MiB} MB` : `${Math.floor(bodyBytes / 1024)} KB`;
  return `That was more than this webhook takes (${size} at most). Please send less in one request.`;
}

/** The SES notification inside an SNS message (`mail.headers[]`, `bounce.bouncedRecipients[]`: depth 4). */
export const SES_NOTIFICATION_DEPTH = 8;

/**
 * True as soon as JSON text nests arrays and objects deeper than `max`, in one pass over the
 * characters (brackets inside strings do not count). Hand-written because neither V8's JSON.parse
 * nor secure-json-parse has a depth limit, and no maintained npm parser offers one without
 * building the value anyway; a counter over the text allocates nothing and costs about a
 * millisecond per megabyte. For valid JSON it is exact (webhook-json.test.ts checks it against
 * the parsed value); for text that is not JSON the parse that follows refuses it anyway.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A provider's JSON, refused in words (400) when it nests deeper than `maxDepth` or is not JSON. */
export function parseWebhookJson(text: string, maxDepth: number, what = 'The body'): unknown {
  if (nestedDeeperThan(text, maxDepth)) {
    throw new MalformedWebhook(`${what} nests deeper than ${maxDepth} levels, which no provider sends.`);
  }
  try {
    // __proto__ and constructor.prototype keys are refused rather than stripped: no provider sends them.
    return secureParse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new MalformedWebhook(`${what} is not JSON.`);
  }
}
