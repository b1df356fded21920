import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey, type DataKey, type SecretBox } from '../store/secret-box.ts';

// VERP (variable envelope return path): each email's envelope sender names its outbox row, so a
// bounce that comes back to it says which email, and so which person, bounced — whatever the
// bounce's own text says. The id is signed (HMAC-SHA256 under a key derived from the data key,
// truncated to 64 bits): nobody can make a bounce for a row by guessing, and a forged one is
// ignored. Lower-case hex only: mail servers are free to change a local part's case.
// docs/decisions/0035-bounces-complaints-and-suppression.md

const PURPOSE = 'verp/v1';
const SIG_HEX = 16;
const LOCAL = /^bounces\+([0-9a-f]{32})([0-9a-f]{16})$/;

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

  /** The envelope sender for an outbox row (its id is a UUID). */
  address(outboxId: string): string {
    const hexId = outboxId.replace(/-/g, '').toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(hexId)) throw new Error('An outbox id is a UUID.');
    return `bounces+${hexId}${this.sig(this.secrets.current, hexId)}@${this.domain}`;
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
    const [hexId, given] = [m[1], Buffer.from(m[2])];
    const ok = this.secrets.keys.some((k) => timingSafeEqual(Buffer.from(this.sig(k, hexId)), given));
    if (!ok) return null;
    return `${hexId.slice(0, 8)}-${hexId.slice(8, 12)}-${hexId.slice(12, 16)}-${hexId.slice(16, 20)}-${hexId.slice(20)}`;
  }
}
