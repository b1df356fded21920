import { verify, X509Certificate } from 'node:crypto';
import type { BounceKind } from '../store/schema.ts';
import { ForgedWebhook, MalformedWebhook, WEBHOOK_FRESHNESS_MS, type ProviderEvent } from './webhooks.ts';

// Amazon SES's bounce and complaint notifications, delivered by SNS over HTTPS
// (docs/decisions/0035). An SNS message is signed (RSA, SHA-1 for SignatureVersion 1, SHA-256 for
// 2) with a certificate SNS publishes at SigningCertURL. That URL comes in the message, so it is
// trusted only on https at the host `sns.<region>.amazonaws.com` of the configured topic's
// region; the fetch (HTTPS validates that host) and, when given, the anchors the certificate must
// chain to are injected, so tests bring their own.

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
  /** How many certificates to keep (SNS rotates them rarely). */
  cacheSize?: number;
}

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
  private readonly certs = new Map<string, Promise<X509Certificate>>();

  constructor(private readonly opts: SnsOptions) {
    const region = regionOfTopic(opts.topicArn);
    if (!region)
      throw new Error(
        'SES_SNS_TOPIC_ARN must be an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:ses-bounces.',
      );
    this.region = region;
  }

  /** True when the URL is SNS's own in the topic's region: https, that host, a .pem path. */
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

  private cert(url: string): Promise<X509Certificate> {
    let cert = this.certs.get(url);
    if (!cert) {
      const fetchCert =
        this.opts.fetchCert ??
        (async (u: string) => {
          const res = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(5000) });
          if (!res.ok) throw new Error(`The SNS signing certificate could not be fetched (HTTP ${res.status}).`);
          return res.text();
        });
      cert = fetchCert(url).then((pem) => new X509Certificate(pem));
      // A failed fetch is not kept: the next message tries again.
      cert.catch(() => this.certs.delete(url));
      if (this.certs.size >= (this.opts.cacheSize ?? 8)) this.certs.delete(this.certs.keys().next().value ?? '');
      this.certs.set(url, cert);
    }
    return cert;
  }

  /** Checks topic, certificate URL, certificate, signature and freshness; returns the message. */
  async verify(body: unknown, now: Date): Promise<SnsMessage> {
    const m = parseMessage(body);
    if (m.TopicArn !== this.opts.topicArn) throw new ForgedWebhook('This SNS message is for another topic.');
    if (!this.pinned(m.SigningCertURL) || !/\.pem$/.test(new URL(m.SigningCertURL).pathname)) {
      throw new ForgedWebhook(`The signing certificate must come from https://sns.${this.region}.amazonaws.com/.`);
    }
    const algorithm = m.SignatureVersion === '1' ? 'sha1' : m.SignatureVersion === '2' ? 'sha256' : null;
    if (!algorithm) throw new ForgedWebhook('Unknown SNS SignatureVersion.');
    const cert = await this.cert(m.SigningCertURL).catch(() => {
      throw new ForgedWebhook('The SNS signing certificate could not be fetched or read.');
    });
    const at = now.getTime();
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
    const sent = Date.parse(m.Timestamp);
    if (!Number.isFinite(sent) || Math.abs(at - sent) > WEBHOOK_FRESHNESS_MS) {
      throw new ForgedWebhook('The SNS message is more than five minutes away from now.');
    }
    return m;
  }
}

/** The bounces and complaints in an SES notification (notificationType, or eventType of event publishing). */
export function sesEvents(message: string): ProviderEvent[] {
  let n: Record<string, unknown>;
  try {
    n = JSON.parse(message) as Record<string, unknown>;
  } catch {
    throw new MalformedWebhook('The SES notification is not JSON.');
  }
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
