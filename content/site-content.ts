// The site's words, links and switches. Re-brand the site by editing this file only; the build
// validates it (src/shared/content-schema.ts) and names any bad field.
import type { SiteContent } from '../src/shared/content-schema.ts';
import { siteWords } from './messages/site-words.ts';
import { termsPages } from './messages/terms-pages.ts';

export const siteContent = {
  name: 'Diamond Hand',
  ticker: 'DH',
  network: 'Ethereum',
  description:
    'Diamond Hand (DH) is a community meme coin on Ethereum for holders who never sell in a panic. Presale coming soon.',
  heroTagline: 'Embrace the Chaos, Hold the Line – Diamond Hand is for the True HODLers!',
  banner: {
    headline: 'GET READY FOR THE HOTTEST CRYPTO PRESALE OF',
    year: 2025,
  },
  // e.g. '2026-12-01T18:00:00Z' (the offset is required): the banner then counts down to it.
  presaleDate: null,
  // Where the banner links once the presale is open, e.g. 'https://presale.example/dh'; required
  // with a presaleDate.
  presaleUrl: null,
  // The token's contract address once deployed, EIP-55 checksummed (mixed case), e.g.
  // '0x52908400098527886E0F7030069857D2E4169EE7'. The page then shows it in the banner and the FAQ,
  // and a broadcast may carry no other address.
  contractAddress: null,
  // The network's block explorer (its origin): a broadcast may link to the contract's page there,
  // and nowhere else on it. Etherscan for Ethereum mainnet.
  explorerUrl: 'https://etherscan.io',
  // The project's own addresses on other chains, if any (e.g. a Bitcoin or Solana address it really
  // uses), written exactly. A broadcast refuses every other chain's address but these.
  otherChainAddresses: [],
  // The wallet button: 'coming-soon' (it flips to "Coming Soon"), 'allowlist' (visitors join the
  // presale allowlist by signing a free Sign-In with Ethereum message; never a transaction) or
  // 'closed'. chainId is the network the signature names: 1 is Ethereum mainnet.
  wallet: { mode: 'coming-soon', chainId: 1 },
  stayUpdated: {
    heading: 'Stay Updated',
    intro: 'Join our email list to stay ahead with exclusive perks and bonuses...',
  },
  closingLine: 'Diamond Hand is for the true HODLERS',
  // What invites earn, on each person's invite page (optional). Promise only what a person checks
  // and grants (docs/decisions/0060-referral-invites.md): never tokens, money or an on-chain allocation.
  referrals: {
    reward:
      'The 100 people with the most confirmed invites get a guaranteed allowlist spot, checked by our team before it is granted. Invites earn no tokens and no money.',
  },
  // Who may join the presale allowlist, and on what terms (docs/decisions/0068-who-may-join.md).
  presaleTerms: {
    // The terms' version on record: each join's signed message names it and the entry keeps it.
    // Change it whenever the terms' words change. Letters, digits, dots, dashes, underscores.
    version: '2026-12-07',
    // Countries whose residents may not join, as ISO 3166-1 alpha-2 codes, e.g. ['US', 'CU']. The
    // page names them in each language; the signed message declares the signer lives in none of
    // them; a join the server's own lookup places in one is refused. Empty: anyone may join.
    restrictedCountries: [],
    // The email list: 'open' to every country (it is news, and buys nothing), or 'restricted' to
    // refuse a sign-up the lookup places in one of those countries too.
    emailList: 'open',
    // The terms' words, one page per locale (content/messages/<locale>/terms.ts) at /terms,
    // /es/terms…; a locale whose translation is a draft shows English's, and says so.
    pages: termsPages,
  },
  riskNotice: 'Crypto assets are volatile. Nothing on this site is financial advice.',
  social: {
    twitter: { label: 'Twitter', url: 'https://twitter.com/DiamondHandDH' },
    telegram: { label: 'Telegram', url: 'https://t.me/DiamondHandDH' },
  },
  faq: [
    {
      question: 'What is Diamond Hand (DH)?',
      answer: 'A community meme coin for holders who don\'t sell in a panic \u2014 the "diamond hands" of crypto.',
    },
    { question: 'Which network is DH on?', answer: 'Ethereum.' },
    {
      question: 'When does the presale go live?',
      answer:
        'Soon. Follow our Telegram and Twitter channels, or join the email list below, to hear the moment it opens.',
    },
    {
      question: 'What is the smart contract address?',
      // Once contractAddress is set, the answer shows it first.
      showsContractAddress: true,
      answer:
        'It will be announced soon, on this site and our official channels only. Never trust an address sent to you in a private message.',
    },
    {
      question: 'What makes DH different?',
      answer: 'Holding strong through volatility, and a community of long-term believers.',
    },
  ],
  theme: { color: '#0b1d4d', background: '#7ec8f2' },
  // The words above in every other language the site speaks, each in its locale's folder
  // (content/messages/<locale>/site-words.ts): a locale that lacks them, or has a different number
  // of FAQ entries, stops the build with its name.
  translations: siteWords,
} satisfies SiteContent;
