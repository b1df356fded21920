import { Address, Siwe } from 'ox';
import { walletRefusals } from '../../../../content/messages/en/allowlist.ts';
import { allowlistPurposes, type AllowlistPurpose } from '../../../shared/allowlist/allowlist-schema.ts';
import { asciiCountryList } from '../../../shared/countries.ts';
import { locales, type Locale } from '../../../shared/locales.ts';
import { localePath } from '../../../shared/locale-paths.ts';
import { pagePaths } from '../../../shared/paths.ts';

// The Sign-In with Ethereum message (EIP-4361) the allowlist asks a wallet to sign: written here,
// on the server, with ox's Siwe (a maintained implementation of the ABNF), and read back with it.
// The browser only passes the text to the wallet's personal_sign. What the message binds: this
// site's host (a wallet refuses to sign for a page on another origin: the phishing guard), its
// URL, the presale's chain, a single-use nonce, when it was written and a 10-minute expiry, and a
// statement in words that says what signing does (join or leave) and what it can never do.
// A join's statement also declares the terms' version accepted and that the signer lives in none
// of the restricted countries, and its one resource is the terms page in the visitor's language.
// The statement is English: EIP-4361's grammar allows only ASCII there, and the reference parser
// (and the wallets built on it) refuse a message with anything else.
// docs/decisions/0045-wallet-allowlist.md, docs/decisions/0068-who-may-join.md

/** How long a written message may be signed and sent back. */
export const MESSAGE_TTL_MS = 10 * 60 * 1000;

export interface SiweSite {
  /** The public host (RFC 3986 authority), e.g. `dh.example` or `127.0.0.1:4173`. */
  domain: string;
  /** The page's address, e.g. `https://dh.example/`. */
  uri: string;
  chainId: number;
}

/** What joining declares: the content file's presaleTerms, as this server was given them. */
export interface Declaration {
  version: string;
  restrictedCountries: readonly string[];
}

/** The site a message must name, from PUBLIC_URL and the content file's chain. */
export function siweSite(publicUrl: string, chainId: number): SiweSite {
  const url = new URL(publicUrl);
  return { domain: url.host, uri: `${url.origin}/`, chainId };
}

/** The statement a message to join must carry now: the current terms' version and countries. */
export function joinStatement(declaration: Declaration): string {
  const { version, restrictedCountries } = declaration;
  return walletRefusals.statement.join({
    version,
    countries: restrictedCountries.length === 0 ? null : asciiCountryList(restrictedCountries),
  });
}

/** The terms page in `locale`, as a resource of the message: `https://dh.example/ar/terms`. */
const termsUrl = (site: SiweSite, locale: Locale): string =>
  new URL(localePath(locale, pagePaths.terms), site.uri).href;

export function writeMessage(
  site: SiweSite,
  opts: {
    address: Address.Address;
    purpose: AllowlistPurpose;
    nonce: string;
    now: Date;
    declaration: Declaration;
    /** The visitor's language: the terms page the message names is this one's. */
    locale: Locale;
  },
): string {
  const join = opts.purpose === 'join';
  return Siwe.createMessage({
    domain: site.domain,
    address: opts.address,
    statement: join ? joinStatement(opts.declaration) : walletRefusals.statement.leave,
    uri: site.uri,
    version: '1',
    chainId: site.chainId,
    nonce: opts.nonce,
    issuedAt: opts.now,
    expirationTime: new Date(opts.now.getTime() + MESSAGE_TTL_MS),
    ...(join ? { resources: [termsUrl(site, opts.locale)] } : {}),
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
 * URL and chain, with one of our two statements as they read now (a join's naming the current
 * terms' version and countries, and one of our terms pages), and not expired.
 */
export function readMessage(site: SiweSite, text: string, now: Date, declaration: Declaration): MessageCheck {
  let parsed: ReturnType<typeof Siwe.parseMessage>;
  let rewritten: string;
  try {
    parsed = Siwe.parseMessage(text);
    const { domain, address, uri, version, chainId, nonce, issuedAt, expirationTime, statement, resources } = parsed;
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
      ...(resources ? { resources } : {}),
    });
  } catch {
    return refuse(walletRefusals.malformed);
  }
  if (rewritten !== text) return refuse(walletRefusals.malformed);
  const { domain, address, uri, chainId, nonce, expirationTime, statement, resources } = parsed;
  if (domain !== site.domain) return refuse(walletRefusals.wrongDomain({ domain: site.domain }));
  if (uri !== site.uri) return refuse(walletRefusals.wrongUri({ uri: site.uri }));
  if (chainId !== site.chainId) return refuse(walletRefusals.wrongChain({ chainId: site.chainId }));
  const statements: Record<AllowlistPurpose, string> = {
    join: joinStatement(declaration),
    leave: walletRefusals.statement.leave,
  };
  const purpose = allowlistPurposes.find((p) => statements[p] === statement);
  if (!purpose) return refuse(walletRefusals.wrongStatement);
  // A join names one of our terms pages, and nothing else; a leave names none.
  const named = resources ?? [];
  const resourcesAsWritten =
    purpose === 'join' ? named.length === 1 && locales.some((l) => termsUrl(site, l) === named[0]) : named.length === 0;
  if (!resourcesAsWritten) return refuse(walletRefusals.wrongStatement);
  if (!address || !nonce || !expirationTime || !Address.validate(address, { strict: false }))
    return refuse(walletRefusals.malformed);
  if (expirationTime.getTime() <= now.getTime()) return refuse(walletRefusals.expired);
  return { ok: true, message: { address: Address.checksum(address), purpose, nonce, expiresAt: expirationTime } };
}
