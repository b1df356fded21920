import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey, type DataKey, type SecretBox } from '../../store/secret-box.ts';

// VERP (variable envelope return path): each email's envelope sender names its outbox row, so a
// bounce that comes back to it says which email, and so which person, bounced — whatever the
// bounce's own text says. The id is signed (HMAC-SHA256 under a key derived from the data key,
// truncated to 64 bits): nobody can make a bounce for a row by guessing, and a forged one is
// ignored. Lower-case hex only: mail servers are free to change a local part's case.
// docs/decisions/0035-bounces-complaints-and-suppression.md

const PURPOSE = 'verp/v1';
const SIG_HEX = 16;
const LOCAL = /^bounces\+([0-9a-f]{32})([0-9a-f]{16})$/;
/** Our Message-ID: the same signed id as the VERP address, so a report that lost the envelope still names it. */
const MESSAGE_ID = /^<?dh\.([0-9a-f]{32})([0-9a-f]{16})@[^<>@\s]+>?$/;

/** The domain of an address such as "Diamond Hand <hello@example.com>", or null. */
export function domainOf(address: string): string | null {
  const bare = /<([^<>]+)>\s*$/.exec(address)?.[1] ?? address;
  const at = bare.trim().lastIndexOf('@');
  return at === -1
    ? null
    : bare
        .trim()
        .slice(at + 1)
        .toLowerCase() || null;
}

export class Verp {
  private readonly derived = new WeakMap<DataKey, Buffer>();

  constructor(
    private readonly secrets: SecretBox,
    /** Where bounces come back: BOUNCE_DOMAIN, or MAIL_FROM's domain. */
    readonly domain: string,
  ) {}

  private sig(key: DataKey, hexId: string): string {
    let k = this.derived.get(key);
    if (!k) this.derived.set(key, (k = deriveKey(key.key, PURPOSE)));
    return createHmac('sha256', k).update(hexId).digest('hex').slice(0, SIG_HEX);
  }

  private signedId(outboxId: string): string {
    const hexId = outboxId.replace(/-/g, '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(hexId)) throw new Error('An outbox id is a UUID.');
    return `${hexId}${this.sig(this.secrets.current, hexId)}`;
  }

  /** The envelope sender for an outbox row (its id is a UUID). */
  address(outboxId: string): string {
    return `bounces+${this.signedId(outboxId)}@${this.domain}`;
  }

  /**
   * The email's Message-ID, carrying the same signed id: a feedback report whose copy of the email
   * lost its Return-Path (receivers strip the envelope) still names the row by it. One row, one
   * Message-ID: a retry of the same email is the same message.
   */
  messageId(outboxId: string): string {
    return `<dh.${this.signedId(outboxId)}@${this.domain}>`;
  }

  /** The outbox row a Message-ID of ours names, or null (not ours, or its signature is wrong). */
  outboxIdOfMessageId(messageId: string): string | null {
    const m = MESSAGE_ID.exec(messageId.trim().toLowerCase());
    return m?.[1] && m[2] ? this.verified(m[1], m[2]) : null;
  }

  private verified(hexId: string, signature: string): string | null {
    const given = Buffer.from(signature);
    const ok = this.secrets.keys.some((k) => timingSafeEqual(Buffer.from(this.sig(k, hexId)), given));
    if (!ok) return null;
    return `${hexId.slice(0, 8)}-${hexId.slice(8, 12)}-${hexId.slice(12, 16)}-${hexId.slice(16, 20)}-${hexId.slice(20)}`;
  }

  /**
   * The outbox row an envelope address names, or null when it is not one of ours or its
   * signature is wrong (under every key of the ring, so a data key rotation keeps old ones).
   */
  outboxIdOf(address: string): string | null {
    const bare = (/<([^<>]+)>\s*$/.exec(address)?.[1] ?? address).trim().toLowerCase();
    const at = bare.lastIndexOf('@');
    if (at === -1) return null;
    const m = LOCAL.exec(bare.slice(0, at));
    if (!m?.[1] || !m[2]) return null;
    return this.verified(m[1], m[2]);
  }
}
