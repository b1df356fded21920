import { z } from 'zod';
import { checksumProblem } from './eth-address.ts';

// The one description of what a team may put in content/site-content.ts. It runs at build time
// (vite plugin + SSR), never in the browser, so the full zod build is fine here.

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const httpsUrl = z
  .string()
  .url('must be a full URL')
  .refine((u) => u.startsWith('https://'), 'must start with https://');

/** What the wallet button does: flip to "Coming Soon", open the allowlist, or say it is closed. */
export const walletModes = ['coming-soon', 'allowlist', 'closed'] as const;
export type WalletMode = (typeof walletModes)[number];

export const faqItemSchema = z.object({
  question: text(200),
  answer: text(1000),
  /** This answer shows the official contract address (contractAddress) once it is set. */
  showsContractAddress: z.boolean().optional(),
});

export const socialLinkSchema = z.object({
  label: text(40),
  url: httpsUrl,
});

export const siteContentSchema = z
  .object({
    name: text(60),
    ticker: z.string().regex(/^[A-Z0-9]{2,8}$/, 'must be 2–8 capital letters or digits'),
    network: text(40),
    description: text(160),
    heroTagline: text(160),
    banner: z.object({
      headline: text(120),
      year: z.number().int('must be a whole year').min(2000).max(2100),
    }),
    // When the presale opens: an ISO date-time with an explicit UTC offset (the page counts down
    // to one instant, wherever the visitor is); null means "Coming Soon".
    presaleDate: z.iso
      .datetime({
        offset: true,
        error:
          'must be an ISO date-time with its UTC offset, like 2026-12-01T18:00:00Z or 2026-12-01T20:00:00+02:00, or null',
      })
      .nullable(),
    // Where the banner sends people once the presale is open; needed when presaleDate is set.
    presaleUrl: httpsUrl.nullable(),
    // The token's official contract address, EIP-55 checksummed; null until it is deployed. The
    // page shows it (banner, FAQ) and a broadcast may carry no other address.
    contractAddress: z
      .string()
      .nullable()
      .optional()
      .superRefine((value, ctx) => {
        const problem = value == null ? null : checksumProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform((v) => v ?? null),
    // The block explorer of the network (its origin, e.g. https://etherscan.io for Ethereum
    // mainnet). A broadcast may link there, to the official contract address's page only
    // (docs/decisions/0027-broadcast-guard.md).
    explorerUrl: httpsUrl
      .refine((u) => {
        try {
          const url = new URL(u);
          return url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
        } catch {
          return false;
        }
      }, 'must be the explorer’s origin only, like https://etherscan.io (no path)')
      .default('https://etherscan.io'),
    // The wallet button (docs/decisions/0045-wallet-allowlist.md). 'coming-soon' keeps the button
    // that flips to "Coming Soon"; 'allowlist' opens the signed presale allowlist (a Sign-In with
    // Ethereum signature, never a transaction); 'closed' says the allowlist is closed. chainId is
    // the network the signature names (1 = Ethereum mainnet).
    wallet: z
      .object({
        mode: z.enum(walletModes, { error: `must be one of ${walletModes.join(', ')}` }),
        chainId: z
          .number({ error: 'must be a chain id number, e.g. 1 for Ethereum mainnet' })
          .int('must be a whole chain id')
          .min(1, 'must be a chain id of 1 or more')
          .max(2 ** 53 - 1, 'must be a chain id a browser can hold exactly'),
      })
      .strict(),
    stayUpdated: z.object({
      heading: text(60),
      intro: text(200),
    }),
    closingLine: text(120),
    riskNotice: text(300),
    social: z.object({
      twitter: socialLinkSchema,
      telegram: socialLinkSchema,
    }),
    faq: z.array(faqItemSchema).min(1, 'needs at least one question').max(20),
    theme: z.object({
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'),
      background: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'),
    }),
  })
  .strict()
  .check((ctx) => {
    if (ctx.value.presaleDate !== null && ctx.value.presaleUrl === null) {
      ctx.issues.push({
        code: 'custom',
        path: ['presaleUrl'],
        message: 'must be an https:// URL when presaleDate is set (where the banner links once the presale is open)',
        input: ctx.value.presaleUrl,
      });
    }
  });

export type SiteContent = z.infer<typeof siteContentSchema>;
export type FaqItem = z.infer<typeof faqItemSchema>;

/** Validates raw content; throws an Error whose message names every bad field by its path. */
export function parseSiteContent(raw: unknown, source = 'content/site-content.ts'): SiteContent {
  const result = siteContentSchema.safeParse(raw);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(the whole file)';
    return `  - ${field}: ${issue.message}`;
  });
  throw new Error(`${source} is not valid:\n${lines.join('\n')}`);
}
