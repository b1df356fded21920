import { createHash, createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { BounceKind } from '../../store/schema.ts';

// Mail providers' bounce and complaint webhooks: each provider's own proof that it sent the
// request, and its events turned into ours. Pure functions; the routes are in webhook-routes.ts.
// docs/decisions/0035-bounces-complaints-and-suppression.md

export interface ProviderEvent {
  eventId: string;
  kind: BounceKind;
  address: string;
  detail: string | null;
}

/** A request that is not the provider's, in words (answered 401). */
export class ForgedWebhook extends Error {}
/** A body that is not what the provider documents (answered 400). */
export class MalformedWebhook extends Error {}
/** A request that cannot be checked just now (answered 503 with Retry-After: the provider retries). */
export class WebhookBusy extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Signed timestamps older (or further ahead) than this are refused: a replay past the nonce's keeping. */
export const WEBHOOK_FRESHNESS_MS = 5 * 60_000;

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
// A NUL is in no provider's field, and PostgreSQL's text cannot hold one: such a field is missing.
const str = (v: unknown): string | null =>
  typeof v === 'string' && v.length > 0 && !v.includes('\u0000') ? v : typeof v === 'number' ? String(v) : null;

function fresh(timestampSeconds: string, now: Date): void {
  const t = Number(timestampSeconds);
  if (!/^\d{1,12}$/.test(timestampSeconds) || Math.abs(now.getTime() - t * 1000) > WEBHOOK_FRESHNESS_MS) {
    throw new ForgedWebhook('The signed timestamp is missing or more than five minutes away from now.');
  }
}

// --- Postmark: HTTP basic auth in the webhook's URL (Postmark signs nothing). ---

export function checkPostmarkAuth(header: string | undefined, user: string, password: string): void {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  const given = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  // Compared as a whole, in constant time, so neither half leaks by timing.
  if (
    !sameText(
      createHash('sha256').update(given).digest('hex'),
      createHash('sha256').update(`${user}:${password}`).digest('hex'),
    )
  ) {
    throw new ForgedWebhook('These webhook credentials are not the ones configured.');
  }
}

const POSTMARK_HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated']);
const POSTMARK_SOFT = new Set(['SoftBounce', 'Transient', 'DnsError']);
const POSTMARK_COMPLAINT = new Set(['SpamComplaint', 'SpamNotification']);

/** A Postmark Bounce or SpamComplaint webhook: one record; other types (auto-replies…) are no bounce. */
export function postmarkEvents(body: unknown): ProviderEvent[] {
  if (!isObject(body)) throw new MalformedWebhook('A Postmark webhook is one JSON object.');
  const id = str(body.ID);
  const address = str(body.Email);
  const type = str(body.Type) ?? str(body.RecordType);
  if (!id || !address || !type) throw new MalformedWebhook('A Postmark bounce needs ID, Email and Type.');
  const kind: BounceKind | null =
    body.RecordType === 'SpamComplaint' || POSTMARK_COMPLAINT.has(type)
      ? 'complaint'
      : POSTMARK_HARD.has(type)
        ? 'hard'
        : POSTMARK_SOFT.has(type)
          ? 'soft'
          : null;
  return kind ? [{ eventId: id, kind, address, detail: type }] : [];
}

// --- Mailgun: HMAC-SHA256 of timestamp + token under the webhook signing key, in the body. ---

/** Checks the signature and its freshness; returns the token (the nonce that must not come twice). */
export function checkMailgunSignature(body: unknown, signingKey: string, now: Date): string {
  const sig = isObject(body) && isObject(body.signature) ? body.signature : null;
  const timestamp = str(sig?.timestamp);
  const token = str(sig?.token);
  const signature = str(sig?.signature);
  if (!timestamp || !token || !signature)
    throw new ForgedWebhook('The Mailgun signature (timestamp, token, signature) is missing.');
  const expected = createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest('hex');
  if (!sameText(expected, signature.toLowerCase())) throw new ForgedWebhook('The Mailgun signature does not match.');
  fresh(timestamp, now);
  return token;
}

export function mailgunEvents(body: unknown): ProviderEvent[] {
  const data = isObject(body) && isObject(body['event-data']) ? body['event-data'] : null;
  if (!data) throw new MalformedWebhook('A Mailgun webhook carries its event in "event-data".');
  const id = str(data.id);
  const address = str(data.recipient);
  const event = str(data.event);
  if (!id || !address || !event) throw new MalformedWebhook('A Mailgun event needs id, recipient and event.');
  const status = isObject(data['delivery-status']) ? data['delivery-status'] : {};
  const detail = str(status['enhanced-code']) ?? str(status.code) ?? event;
  if (event === 'complained') return [{ eventId: id, kind: 'complaint', address, detail: event }];
  if (event === 'failed' && data.severity === 'permanent') return [{ eventId: id, kind: 'hard', address, detail }];
  if (event === 'failed' && data.severity === 'temporary') {
    // Mailgun reports each retry of one message: they count as one soft bounce, by its Message-Id.
    const message =
      isObject(data.message) && isObject(data.message.headers) ? str(data.message.headers['message-id']) : null;
    return [{ eventId: message ? `message:${message}` : id, kind: 'soft', address, detail }];
  }
  return [];
}

// --- SendGrid: ECDSA P-256 over timestamp + raw body, the public key from the settings. ---

/** SENDGRID_WEBHOOK_PUBLIC_KEY as SendGrid shows it: base64 of the DER SubjectPublicKeyInfo. */
export function sendgridKey(base64: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('SENDGRID_WEBHOOK_PUBLIC_KEY must be an ECDSA P-256 public key (base64, as SendGrid shows it).');
  }
  return key;
}

/** What SendGrid's headers say on their own: read before the body is (webhook-routes.ts). */
export interface SendgridProof {
  timestamp: string;
  /** The signature's bytes (DER), whichever base64 alphabet or padding carried them. */
  signature: Buffer;
  /** The replay guard's key: the signature as (r, low s), hashed. */
  nonce: string;
}

// Base64 in either alphabet, padded or not: the same bytes however they are spelled. Anything else
// (spaces, stray characters that Buffer would silently skip) is not a signature.
const BASE64_ANY = /^[A-Za-z0-9+/_-]{1,200}={0,2}$/;

/**
 * The replay guard's key for an ECDSA P-256 signature: DER-decoded (strictly: trailing bytes or
 * a non-minimal length are refused), s folded to the low half (s and n − s verify alike), as the
 * 64 bytes r ‖ s, hashed. So the same signature re-padded, in base64url or as (r, n − s) is the
 * same nonce. null when the bytes are not a DER signature with r and s in [1, n).
 */
export function normalisedEcdsaNonce(der: Uint8Array): string | null {
  let sig;
  try {
    sig = p256.Signature.fromBytes(der, 'der');
  } catch {
    return null;
  }
  const low = sig.hasHighS() ? new p256.Signature(sig.r, p256.Point.Fn.ORDER - sig.s) : sig;
  return createHash('sha256').update(low.toBytes('compact')).digest('base64url');
}

/**
 * Checks the signature headers without the body: present, a fresh timestamp, a well-formed
 * signature. Returns what the body's check needs and the nonce.
 */
export function sendgridProof(
  headers: { signature: string | undefined; timestamp: string | undefined },
  now: Date,
): SendgridProof {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp) throw new ForgedWebhook('The SendGrid signature headers are missing.');
  fresh(timestamp, now);
  const bytes = BASE64_ANY.test(signature) ? Buffer.from(signature, 'base64') : null;
  const nonce = bytes ? normalisedEcdsaNonce(bytes) : null;
  if (!bytes || !nonce) throw new ForgedWebhook('The SendGrid signature is not an ECDSA signature in base64.');
  return { timestamp, signature: bytes, nonce };
}

/** Checks the signature over timestamp + the raw body (before the body is parsed). */
export function checkSendgridSignature(raw: string, proof: SendgridProof, key: KeyObject): void {
  const ok = verify('sha256', Buffer.from(proof.timestamp + raw, 'utf8'), { key, dsaEncoding: 'der' }, proof.signature);
  if (!ok) throw new ForgedWebhook('The SendGrid signature does not match.');
}

export function sendgridEvents(body: unknown): ProviderEvent[] {
  if (!Array.isArray(body)) throw new MalformedWebhook('A SendGrid webhook is a JSON array of events.');
  const events: ProviderEvent[] = [];
  for (const e of body) {
    if (!isObject(e)) throw new MalformedWebhook('Each SendGrid event is a JSON object.');
    const id = str(e.sg_event_id);
    const address = str(e.email);
    const event = str(e.event);
    if (!id || !address || !event)
      throw new MalformedWebhook('Each SendGrid event needs sg_event_id, email and event.');
    const detail = str(e.status) ?? str(e.type) ?? event;
    if (event === 'spamreport') events.push({ eventId: id, kind: 'complaint', address, detail: event });
    // "bounce" is a permanent refusal; "blocked" (same event, type blocked) a temporary one.
    else if (event === 'bounce')
      events.push({ eventId: id, kind: e.type === 'blocked' ? 'soft' : 'hard', address, detail });
  }
  return events;
}
