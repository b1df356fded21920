import { Address, Siwe } from 'ox';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import { allowlistPurposes, type AllowlistPurpose } from '../../../shared/allowlist/allowlist-schema.ts';

// The Sign-In with Ethereum message (EIP-4361) the allowlist asks a wallet to sign: written here,
// on the server, with ox's Siwe (a maintained implementation of the ABNF), and read back with it.
// The browser only passes the text to the wallet's personal_sign. What the message binds: this
// site's host (a wallet refuses to sign for a page on another origin: the phishing guard), its
// URL, the presale's chain, a single-use nonce, when it was written and a 10-minute expiry, and a
// statement in words that says what signing does (join or leave) and what it can never do.
// docs/decisions/0045-wallet-allowlist.md

/** How long a written message may be signed and sent back. */
export const MESSAGE_TTL_MS = 10 * 60 * 1000;

export interface SiweSite {
  /** The public host (RFC 3986 authority), e.g. `dh.example` or `127.0.0.1:4173`. */
  domain: string;
  /** The page's address, e.g. `https://dh.example/`. */
  uri: string;
  chainId: number;
}

/** The site a message must name, from PUBLIC_URL and the content file's chain. */
export function siweSite(publicUrl: string, chainId: number): SiweSite {
  const url = new URL(publicUrl);
  return { domain: url.host, uri: `${url.origin}/`, chainId };
}

export function writeMessage(
  site: SiweSite,
  opts: { address: Address.Address; purpose: AllowlistPurpose; nonce: string; now: Date },
): string {
  return Siwe.createMessage({
    domain: site.domain,
    address: opts.address,
    statement: walletRefusals.statement[opts.purpose],
    uri: site.uri,
    version: '1',
    chainId: site.chainId,
    nonce: opts.nonce,
    issuedAt: opts.now,
    expirationTime: new Date(opts.now.getTime() + MESSAGE_TTL_MS),
  });
}

/** What a message that passed every check of its own text says. */
interface ReadMessage {
  address: Address.Address;
  purpose: AllowlistPurpose;
  nonce: string;
  expiresAt: Date;
}

export type MessageCheck = { ok: true; message: ReadMessage } | { ok: false; refusal: string };

const refuse = (refusal: string): MessageCheck => ({ ok: false, refusal });

/**
 * Reads a message sent back and checks everything its text says, before anyone looks at the
 * signature or the database: that it is a message exactly as this site writes them (parsed with
 * ox, then written again and compared, so no extra line or field slips through), for this host,
 * URL and chain, with one of our two statements, and not expired.
 */
export function readMessage(site: SiweSite, text: string, now: Date): MessageCheck {
  let parsed: ReturnType<typeof Siwe.parseMessage>;
  let rewritten: string;
  try {
    parsed = Siwe.parseMessage(text);
    const { domain, address, uri, version, chainId, nonce, issuedAt, expirationTime, statement } = parsed;
    if (!domain || !address || !uri || version !== '1' || !chainId || !nonce || !issuedAt || !expirationTime)
      return refuse(walletRefusals.malformed);
    rewritten = Siwe.createMessage({
      domain,
      address,
      statement,
      uri,
      version,
      chainId,
      nonce,
      issuedAt,
      expirationTime,
    });
  } catch {
    return refuse(walletRefusals.malformed);
  }
  if (rewritten !== text) return refuse(walletRefusals.malformed);
  const { domain, address, uri, chainId, nonce, expirationTime, statement } = parsed;
  if (domain !== site.domain) return refuse(walletRefusals.wrongDomain({ domain: site.domain }));
  if (uri !== site.uri) return refuse(walletRefusals.wrongUri({ uri: site.uri }));
  if (chainId !== site.chainId) return refuse(walletRefusals.wrongChain({ chainId: site.chainId }));
  const purpose = allowlistPurposes.find((p) => walletRefusals.statement[p] === statement);
  if (!purpose) return refuse(walletRefusals.wrongStatement);
  if (!address || !nonce || !expirationTime || !Address.validate(address, { strict: false }))
    return refuse(walletRefusals.malformed);
  if (expirationTime.getTime() <= now.getTime()) return refuse(walletRefusals.expired);
  return { ok: true, message: { address: Address.checksum(address), purpose, nonce, expiresAt: expirationTime } };
}
