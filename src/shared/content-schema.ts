import { z } from 'zod';
import { locales, translatedLocales, type Locale, type TranslatedLocale } from './locales.ts';
import { chainAddressOf } from './chain-addresses.ts';
import { checksumProblem } from './eth-address.ts';
import { isCountryCode } from './countries.ts';

// The one description of what a team may put in content/site-content.ts. It runs at build time
// (vite plugin + SSR), never in the browser, so the full zod build is fine here.

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const httpsUrl = z
  .string()
  .url('must be a full URL')
  .refine((u) => u.startsWith('https://'), 'must start with https://');

/** What the wallet button does: flip to "Coming Soon", open the allowlist, or say it is closed. */
const walletModes = ['coming-soon', 'allowlist', 'closed'] as const;
export type WalletMode = (typeof walletModes)[number];

const faqItemSchema = z.object({
  question: text(200),
  answer: text(1000),
  /** This answer shows the official contract address (contractAddress) once it is set. */
  showsContractAddress: z.boolean().optional(),
});

const socialLinkSchema = z.object({
  label: text(40),
  url: httpsUrl,
});

// What invites earn, in the team's words, shown on each person's invite page
// (docs/decisions/0060-referral-invites.md). Optional: unset, the page says nothing about it. Say
// what a person checks and grants, never an allocation the product makes on chain.
const referralsWordsSchema = z.object({ reward: text(300) }).strict();

/**
 * The content file's own words in another locale: everything a visitor reads that the team wrote
 * (the name, ticker, links and switches are the same in every language). The FAQ is the same
 * questions in the same order; which answer shows the contract address is the English file's.
 */
const contentWordsSchema = z
  .object({
    description: text(160),
    heroTagline: text(160),
    bannerHeadline: text(120),
    stayUpdated: z.object({ heading: text(60), intro: text(200) }).strict(),
    closingLine: text(120),
    riskNotice: text(300),
    faq: z.array(z.object({ question: text(200), answer: text(1000) }).strict()),
    referrals: referralsWordsSchema.optional(),
  })
  .strict();
export type ContentWords = z.infer<typeof contentWordsSchema>;

/**
 * The presale's terms in one language (content/messages/<locale>/terms.ts): the team's words, a
 * heading and its paragraphs per section. The page adds the version and who may not join.
 */
const termsPageSchema = z
  .object(
    {
      title: text(120),
      sections: z
        .array(z.object({ heading: text(200), paragraphs: z.array(text(3000)).min(1, 'needs a paragraph') }).strict())
        .min(1, 'needs at least one section'),
    },
    { error: 'must be the terms page in this language (content/messages/<locale>/terms.ts)' },
  )
  .strict();
export type TermsPage = z.infer<typeof termsPageSchema>;

/**
 * Who may join the presale allowlist, and on what terms (docs/decisions/0068-who-may-join.md).
 * The version and the countries go into the message a wallet signs to join, so they are ASCII.
 */
const presaleTermsSchema = z
  .object({
    version: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/,
        'must be 1–40 letters, digits, dots, dashes or underscores, like 2026-12-07',
      ),
    restrictedCountries: z
      .array(
        z.string().refine(isCountryCode, {
          error: (issue) =>
            `${JSON.stringify(issue.input)} is not an ISO 3166-1 alpha-2 country code (two capitals, like US)`,
        }),
      )
      .max(250)
      .refine((codes) => new Set(codes).size === codes.length, 'names a country twice')
      .default([]),
    // Whether the email list refuses the restricted countries too: 'open' by default (news buys
    // nothing), 'restricted' when a team's lawyers want the list closed to them as well.
    emailList: z.enum(['open', 'restricted'], { error: 'must be open or restricted' }).default('open'),
    pages: z
      .object(Object.fromEntries(locales.map((l) => [l, termsPageSchema])) as Record<Locale, typeof termsPageSchema>, {
        error: 'must hold the terms page of every locale (content/messages/terms-pages.ts)',
      })
      .strict(),
  })
  .strict();
export type PresaleTerms = z.infer<typeof presaleTermsSchema>;

const isTranslated = (l: Locale): l is TranslatedLocale => (translatedLocales as readonly Locale[]).includes(l);

const siteContentSchema = z
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
    // The project's own addresses on other chains, if it has any (a Bitcoin, Solana… address it
    // really uses), written exactly: a broadcast may carry these as written, and refuses every
    // other chain's address (src/shared/chain-addresses.ts, docs/decisions/0027-broadcast-guard.md).
    otherChainAddresses: z
      .array(
        z.string().refine((a) => chainAddressOf(a)?.address === a, {
          error:
            'must be a Bitcoin, Solana, ICAP, base58check or bech32 address, written exactly (bech32 in lower case)',
        }),
      )
      .max(20)
      .default([]),
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
    referrals: referralsWordsSchema.optional(),
    presaleTerms: presaleTermsSchema,
    social: z.object({
      twitter: socialLinkSchema,
      telegram: socialLinkSchema,
    }),
    faq: z.array(faqItemSchema).min(1, 'needs at least one question').max(20),
    theme: z.object({
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'),
      background: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour'),
    }),
    // Every other locale's words (content/messages/<locale>/site-words.ts): a page never mixes
    // languages, so a locale without all of them does not build.
    translations: z
      .object(
        Object.fromEntries(translatedLocales.map((l) => [l, contentWordsSchema])) as Record<
          TranslatedLocale,
          typeof contentWordsSchema
        >,
      )
      .strict(),
  })
  .strict()
  .check((ctx) => {
    for (const locale of translatedLocales) {
      const faq = ctx.value.translations[locale].faq;
      if (faq.length !== ctx.value.faq.length) {
        ctx.issues.push({
          code: 'custom',
          path: ['translations', locale, 'faq'],
          message: `must have the same ${ctx.value.faq.length} questions as the English FAQ, in the same order (it has ${faq.length})`,
          input: faq,
        });
      }
    }
  })
  .check((ctx) => {
    // A page never mixes languages: what invites earn is said in every locale, or in none.
    if (ctx.value.referrals === undefined) return;
    for (const locale of translatedLocales) {
      if (ctx.value.translations[locale].referrals === undefined) {
        ctx.issues.push({
          code: 'custom',
          path: ['translations', locale, 'referrals'],
          message: 'must say what invites earn in this language too (the English file says it)',
          input: undefined,
        });
      }
    }
  })
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

/**
 * The content as a page in `locale` reads it: the content file with that locale's words in place
 * of the English ones. Everything else (links, switches, the contract address) is the same.
 */
export function contentIn(content: SiteContent, locale: Locale): SiteContent {
  if (!isTranslated(locale)) return content;
  const words = content.translations[locale];
  return {
    ...content,
    description: words.description,
    heroTagline: words.heroTagline,
    banner: { ...content.banner, headline: words.bannerHeadline },
    stayUpdated: words.stayUpdated,
    closingLine: words.closingLine,
    riskNotice: words.riskNotice,
    faq: content.faq.map((item, i) => ({ ...item, ...words.faq[i] })),
    ...(words.referrals === undefined ? {} : { referrals: words.referrals }),
  };
}

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
