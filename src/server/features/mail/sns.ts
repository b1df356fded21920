import { verify, X509Certificate } from 'node:crypto';
import type { BounceKind } from '../../store/schema.ts';
import { parseWebhookJson, SES_NOTIFICATION_DEPTH } from './webhook-json.ts';
import { ForgedWebhook, MalformedWebhook, WEBHOOK_FRESHNESS_MS, WebhookBusy, type ProviderEvent } from './webhooks.ts';

// Amazon SES's bounce and complaint notifications, delivered by SNS over HTTPS
// (docs/decisions/0035). An SNS message is signed (RSA, SHA-1 for SignatureVersion 1, SHA-256 for
// 2) with a certificate SNS publishes at SigningCertURL. That URL comes in the message, so it is
// trusted only on https at the host `sns.<region>.amazonaws.com` of the configured topic's
// region; the fetch (HTTPS validates that host) and, when given, the anchors the certificate must
// chain to are injected, so tests bring their own.
//
// The URL is chosen by whoever sends the request, and the certificate is needed before the
// signature can be checked, so three rules bound what a stranger who knows the topic can make us
// do: only AWS's own path shape is fetched (/SimpleNotificationService-<hex>.pem), at most a few
// fetches a minute (then 503: SNS retries), and a certificate that has verified a message is kept
// apart from the ones that have not, where no unverified message can push it out.

export interface SnsMessage {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

export interface SnsOptions {
  topicArn: string;
  /** Fetches a signing certificate (PEM); default: GET over https with Node's fetch. */
  fetchCert?: (url: string) => Promise<string>;
  /** Certificates the signing certificate must be issued by; unset: the pinned HTTPS host is the trust. */
  trustAnchors?: readonly X509Certificate[];
  /** How many certificates that have verified a message are kept (SNS rotates them rarely). */
  cacheSize?: number;
  /** How many fetched certificates that have verified nothing yet are kept. */
  pendingSize?: number;
  /** Certificate fetches allowed in any minute (the rest wait: 503, and SNS retries). */
  fetchesPerMinute?: number;
}

/**
 * The path of every signing certificate SNS names: SimpleNotificationService- and a hex digest
 * (32 digits in every one seen; up to 64 allowed, should AWS move to a longer digest), lower case.
 */
const CERT_PATH = /^\/SimpleNotificationService-[0-9a-f]{32,64}\.pem$/;
const FETCH_WINDOW_MS = 60_000;

const ARN = /^arn:aws[a-z-]*:sns:([a-z0-9-]+):\d{12}:[\w-]{1,256}$/;

/** The region of an SNS topic ARN, or null when it is not one. */
export const regionOfTopic = (arn: string): string | null => ARN.exec(arn)?.[1] ?? null;

function parseMessage(body: unknown): SnsMessage {
  const b = body as Record<string, unknown> | null;
  const fields = [
    'Type',
    'MessageId',
    'TopicArn',
    'Message',
    'Timestamp',
    'SignatureVersion',
    'Signature',
    'SigningCertURL',
  ] as const;
  if (typeof b !== 'object' || b === null || fields.some((f) => typeof b[f] !== 'string')) {
    throw new MalformedWebhook(`An SNS message needs ${fields.join(', ')}.`);
  }
  return b as unknown as SnsMessage;
}

/** The string SNS signs: the named fields, each as "Name\nvalue\n", in this order. */
function stringToSign(m: SnsMessage): string {
  const names =
    m.Type === 'Notification'
      ? ['Message', 'MessageId', ...(m.Subject !== undefined ? ['Subject'] : []), 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return names.map((n) => `${n}\n${String((m as unknown as Record<string, unknown>)[n] ?? '')}\n`).join('');
}

export class SnsVerifier {
  private readonly region: string;
  /** Certificates that have verified a message, least recently used first; only a verified message changes it. */
  private readonly trusted = new Map<string, X509Certificate>();
  /** Fetched (or being fetched) for a message not yet verified, oldest first. */
  private readonly pending = new Map<string, Promise<X509Certificate>>();
  /** When each fetch of the last minute started. */
  private fetches: number[] = [];

  constructor(private readonly opts: SnsOptions) {
    const region = regionOfTopic(opts.topicArn);
    if (!region)
      throw new Error(
        'SES_SNS_TOPIC_ARN must be an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:ses-bounces.',
      );
    this.region = region;
  }

  /** The topic this verifier takes (SNS also names it in the x-amz-sns-topic-arn header). */
  get topicArn(): string {
    return this.opts.topicArn;
  }

  /** True when the URL is SNS's own in the topic's region: https, that host, no port or credentials. */
  pinned(url: string): boolean {
    try {
      const u = new URL(url);
      return (
        u.protocol === 'https:' &&
        u.hostname === `sns.${this.region}.amazonaws.com` &&
        u.port === '' &&
        !u.username &&
        !u.password
      );
    } catch {
      return false;
    }
  }

  /** True for a signing certificate's URL as SNS writes it: pinned host, AWS's path shape, nothing else. */
  certUrl(url: string): boolean {
    if (!this.pinned(url)) return false;
    const u = new URL(url);
    return CERT_PATH.test(u.pathname) && u.search === '' && u.hash === '';
  }

  private cert(url: string, now: Date): Promise<X509Certificate> {
    const known = this.trusted.get(url);
    if (known) return Promise.resolve(known);
    const waiting = this.pending.get(url);
    if (waiting) return waiting;
    const at = now.getTime();
    this.fetches = this.fetches.filter((t) => t > at - FETCH_WINDOW_MS && t <= at);
    const budget = this.opts.fetchesPerMinute ?? 3;
    if (this.fetches.length >= budget) {
      const wait = Math.max(1, Math.ceil(((this.fetches[0] ?? at) + FETCH_WINDOW_MS - at) / 1000));
      throw new WebhookBusy(
        `${budget} SNS signing certificates were fetched in the last minute; this message is checked when SNS retries it.`,
        wait,
      );
    }
    this.fetches.push(at);
    const fetchCert =
      this.opts.fetchCert ??
      (async (u: string) => {
        const res = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(5000) });
        if (!res.ok) throw new Error(`The SNS signing certificate could not be fetched (HTTP ${res.status}).`);
        return res.text();
      });
    const cert = fetchCert(url).then((pem) => new X509Certificate(pem));
    // A failed fetch is not kept: the next message tries again (within the budget).
    cert.catch(() => {
      if (this.pending.get(url) === cert) this.pending.delete(url);
    });
    // Only certificates that have verified nothing make room for one more of their kind.
    if (this.pending.size >= (this.opts.pendingSize ?? 4)) this.pending.delete(this.pending.keys().next().value ?? '');
    this.pending.set(url, cert);
    return cert;
  }

  /** A certificate verified a message: it joins (or refreshes its place among) the trusted ones. */
  private proven(url: string, cert: X509Certificate): void {
    this.pending.delete(url);
    this.trusted.delete(url);
    this.trusted.set(url, cert);
    if (this.trusted.size > (this.opts.cacheSize ?? 4)) this.trusted.delete(this.trusted.keys().next().value ?? '');
  }

  /** Checks topic, certificate URL, certificate, signature and freshness; returns the message. */
  async verify(body: unknown, now: Date): Promise<SnsMessage> {
    const m = parseMessage(body);
    if (m.TopicArn !== this.opts.topicArn) throw new ForgedWebhook('This SNS message is for another topic.');
    if (!this.certUrl(m.SigningCertURL)) {
      throw new ForgedWebhook(
        `The signing certificate must be https://sns.${this.region}.amazonaws.com/SimpleNotificationService-<hex>.pem.`,
      );
    }
    const algorithm = m.SignatureVersion === '1' ? 'sha1' : m.SignatureVersion === '2' ? 'sha256' : null;
    if (!algorithm) throw new ForgedWebhook('Unknown SNS SignatureVersion.');
    // Stale before anything is fetched: a captured message replayed late costs no fetch.
    const at = now.getTime();
    const sent = Date.parse(m.Timestamp);
    if (!Number.isFinite(sent) || Math.abs(at - sent) > WEBHOOK_FRESHNESS_MS) {
      throw new ForgedWebhook('The SNS message is more than five minutes away from now.');
    }
    const cert = await this.cert(m.SigningCertURL, now).catch((error: unknown) => {
      if (error instanceof WebhookBusy) throw error;
      throw new ForgedWebhook('The SNS signing certificate could not be fetched or read.');
    });
    if (at < Date.parse(cert.validFrom) || at > Date.parse(cert.validTo))
      throw new ForgedWebhook('The SNS signing certificate is not valid now.');
    if (
      this.opts.trustAnchors &&
      !this.opts.trustAnchors.some((ca) => cert.checkIssued(ca) && cert.verify(ca.publicKey))
    ) {
      throw new ForgedWebhook('The SNS signing certificate is not issued by a trusted authority.');
    }
    if (!verify(algorithm, Buffer.from(stringToSign(m), 'utf8'), cert.publicKey, Buffer.from(m.Signature, 'base64'))) {
      throw new ForgedWebhook('The SNS signature does not match.');
    }
    this.proven(m.SigningCertURL, cert);
    return m;
  }
}

/** The bounces and complaints in an SES notification (notificationType, or eventType of event publishing). */
export function sesEvents(message: string): ProviderEvent[] {
  const parsed = parseWebhookJson(message, SES_NOTIFICATION_DEPTH, 'The SES notification');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new MalformedWebhook('The SES notification is not a JSON object.');
  const n = parsed as Record<string, unknown>;
  const type = n.notificationType ?? n.eventType;
  const list = (v: unknown): Record<string, unknown>[] =>
    Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
  const events: ProviderEvent[] = [];
  if (type === 'Bounce') {
    const b = (n.bounce ?? {}) as Record<string, unknown>;
    // Permanent: the address is dead. Transient (mailbox full, too large…) and Undetermined: soft.
    const kind: BounceKind = b.bounceType === 'Permanent' ? 'hard' : 'soft';
    for (const r of list(b.bouncedRecipients)) {
      if (typeof r.emailAddress !== 'string' || typeof b.feedbackId !== 'string')
        throw new MalformedWebhook('An SES bounce needs feedbackId and each recipient’s emailAddress.');
      const detail =
        typeof r.status === 'string' ? r.status : typeof b.bounceSubType === 'string' ? b.bounceSubType : null;
      events.push({
        eventId: `${b.feedbackId}:${r.emailAddress.toLowerCase()}`,
        kind,
        address: r.emailAddress,
        detail,
      });
    }
  } else if (type === 'Complaint') {
    const c = (n.complaint ?? {}) as Record<string, unknown>;
    // "not-spam" feedback is the opposite of a complaint.
    if (c.complaintFeedbackType === 'not-spam') return [];
    for (const r of list(c.complainedRecipients)) {
      if (typeof r.emailAddress !== 'string' || typeof c.feedbackId !== 'string')
        throw new MalformedWebhook('An SES complaint needs feedbackId and each recipient’s emailAddress.');
      events.push({
        eventId: `${c.feedbackId}:${r.emailAddress.toLowerCase()}`,
        kind: 'complaint',
        address: r.emailAddress,
        detail: typeof c.complaintFeedbackType === 'string' ? c.complaintFeedbackType : 'complaint',
      });
    }
  }
  return events;
}
