import { BlockList, isIP } from 'node:net';

// The records `npm run mail:check` prints for the operator to publish, written as DNS software
// reads them: the SPF mechanism for our relay (or none for a local one), TXT values in zone-file
// strings, DMARC's starting policy. mail-check.ts compares them with what DNS holds.
// docs/decisions/0040, 0056.

// SPF includes of the providers whose SMTP hosts we recognise (their documented values); any other
// relay is allowed by its address (ip4:/ip6: for an address, RFC 7208 §5.6) or its host's address
// records (a:) — unless it is on this machine or network (below).
const PROVIDER_SPF: readonly [RegExp, string][] = [
  [/(^|\.)postmarkapp\.com$/, 'include:spf.mtasv.net'],
  [/(^|\.)mailgun\.org$/, 'include:mailgun.org'],
  [/(^|\.)sendgrid\.net$/, 'include:sendgrid.net'],
  [/(^|\.)amazonaws\.com$/, 'include:amazonses.com'],
  [/(^|\.)sendinblue\.com$|(^|\.)brevo\.com$/, 'include:spf.brevo.com'],
];

// Addresses no receiver ever sees mail come from (loopback, private, link-local, unspecified): a
// relay there hands our mail on, and receivers judge the address it sends from.
const LOCAL_NETS = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL_NETS.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL_NETS.addSubnet(net, bits, 'ipv6');

/**
 * SMTP_URL's host, lower-cased, without the brackets a URL puts around an IPv6 address, and an
 * IPv4-mapped one (::ffff:7f00:1, as URL writes ::ffff:127.0.0.1) as the IPv4 address it carries.
 */
export function bareHost(smtpHost: string): string {
  const host = smtpHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex?.[1] || !hex[2]) return host;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * A relay on this machine or its network (a loopback or private address, localhost, a name with no
 * dot such as a container's, or a local-only suffix): never the address receivers see mail from.
 */
export function isLocalRelay(smtpHost: string): boolean {
  const host = bareHost(smtpHost);
  const family = isIP(host);
  if (family === 4) return LOCAL_NETS.check(host, 'ipv4');
  if (family === 6) return LOCAL_NETS.check(host, 'ipv6');
  return !host.includes('.') || /(^|\.)(localhost|local|internal|home\.arpa|localdomain)\.?$/.test(host);
}

/**
 * The SPF mechanism that lets our SMTP server send for the bounce domain; null when there is no
 * SMTP server (SMTP_URL unset) or it is a local relay (isLocalRelay), whose own way out decides.
 */
export function spfMechanism(smtpHost: string | undefined): string | null {
  if (!smtpHost || isLocalRelay(smtpHost)) return null;
  const host = bareHost(smtpHost);
  // An address is written ip4:/ip6:; a:<address> is a permerror (a: takes a domain, RFC 7208 §5.3).
  const family = isIP(host);
  if (family === 4) return `ip4:${host}`;
  if (family === 6) return `ip6:${host}`;
  return PROVIDER_SPF.find(([re]) => re.test(host))?.[1] ?? `a:${host}`;
}

/**
 * A TXT value in zone-file form (RFC 1035 §5.1): quoted strings of at most 255 bytes each (a TXT
 * string's length is one byte, RFC 1035 §3.3.14), `"` and `\` escaped, any byte outside printable
 * ASCII as \DDD. A receiver joins the strings of one record into its value (RFC 7208 §3.3,
 * RFC 6376 §3.6.2.2).
 */
export function zoneTxt(value: string): string {
  const bytes = Buffer.from(value, 'utf8');
  const strings: string[] = [];
  for (let at = 0; at < bytes.length || strings.length === 0; at += 255) {
    let out = '';
    for (const b of bytes.subarray(at, at + 255)) {
      if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
      else if (b < 0x20 || b > 0x7e) out += `\\${String(b).padStart(3, '0')}`;
      else out += String.fromCharCode(b);
    }
    strings.push(`"${out}"`);
  }
  return strings.join(' ');
}

export const dmarcRecord = (fromDomain: string): string =>
  `v=DMARC1; p=none; rua=mailto:dmarc@${fromDomain}; adkim=r; aspf=r`;
