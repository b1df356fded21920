// The presale's terms, in English: the team's words, like the content file's (a re-brand rewrites
// them). Change the content file's presaleTerms.version whenever these words change: every join
// records the version it accepted. The page adds the version and the countries that may not join.
import type { TermsPage } from '../../../src/shared/content-schema.ts';

export const terms: TermsPage = {
  title: 'Presale terms',
  sections: [
    {
      heading: 'What the allowlist is',
      paragraphs: [
        'Joining the allowlist puts your wallet address on a list of people who want to take part in the presale. It is free, it is not a purchase, and it gives you no tokens, no money and no right to buy a given amount.',
        'You join by signing a message in your wallet. Signing sends no transaction and grants no permission to move your funds. You can leave the list at any time, from anywhere, by signing a message to leave.',
      ],
    },
    {
      heading: 'Who may join',
      paragraphs: [
        'You may join only if taking part in a token presale is lawful where you live, and only if you are not a resident of a country named below as excluded.',
        'The message you sign to join says that you accept these terms, in the version named below, and that you are not a resident of those countries. We keep that signed message as your declaration.',
      ],
    },
    {
      heading: 'Risks',
      paragraphs: [
        'Crypto assets are volatile and you can lose everything you put in. Nothing on this site is financial, legal or tax advice.',
      ],
    },
    {
      heading: 'Changes',
      paragraphs: [
        'If these terms change, they get a new version. Your entry keeps the version you accepted; the team may ask you to sign again to accept a newer one.',
      ],
    },
  ],
};
