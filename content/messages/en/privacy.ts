// The privacy notice, in English. Written for what the site really does today: update it in the
// same change that alters what is collected. Rendered on the server only
// (src/client/site/privacy-page.tsx lays it out). docs/decisions/0043-messages-as-codes.md
import type { PrivacyMessages, PrivacySection } from '../../../src/shared/messages/privacy.ts';

export const privacyMessages: PrivacyMessages = {
  title: 'Privacy notice',
  intro: ({ site }: { site: string }): string =>
    `This notice explains what the ${site} website does with information about you. We keep it short because we keep very little.`,
  sections: ({ name }: { name: string }): readonly PrivacySection[] => [
    {
      heading: 'When you visit',
      blocks: [
        {
          p: [
            'Our server does not write your IP address to any database, log or file. Its logs record only the time, the page asked for, the answer code and how long it took, so that we can keep the site running. To stop floods of fake sign-ups, it remembers in memory, for one minute, how many sign-ups came from your network; that count is never written down.',
          ],
        },
        {
          p: [
            'The page loads nothing from any other website: every font, image and script comes from our own server. We run no advertising or analytics scripts from other companies.',
          ],
        },
      ],
    },
    {
      heading: 'Counting visits',
      blocks: [
        {
          p: [
            "To know how many people come, from where and to which page, your browser sends us one small message when a page has loaded: the page's address, the address of the site that sent you here, your time zone and your language. It sends no cookies and reads nothing stored in your browser. If your browser sends Global Privacy Control or Do Not Track, it sends nothing and we count nothing. Search engines and other robots are not counted.",
          ],
        },
        { p: ['For each visit we store exactly:'] },
        {
          ul: [
            ['the time, and the page visited;'],
            ['only the name of the website that sent you (for example t.co), never the page on it;'],
            [
              "the city, region, country, approximate coordinates of that area, postal code, time zone and network operator (such as your mobile carrier) that our own copy of a public address database gives for your connection's address; the address itself is looked up in memory on our server and never stored;",
            ],
            ["your browser's time zone and language;"],
            [
              "a visitor code, so that a person visiting twice in a day counts once: a scrambled mix of your connection address and browser name with a random key that changes every day. We delete each day's key after 48 hours, after which nobody, including us, can link a code to an address.",
            ],
          ],
        },
        {
          p: [
            'Visits are kept for 90 days and then deleted; only daily totals (visits per page, site, country and city) are kept after that.',
          ],
        },
      ],
    },
    {
      heading: 'Cookies',
      blocks: [
        {
          p: [
            'When the page with the sign-up form has loaded, we set three small cookies, only to protect that form, never to follow you: ',
            { code: 'XSRF-TOKEN' },
            ' and ',
            { code: '_csrf' },
            ' prove a sign-up came from our own page and not from another website, and ',
            { code: 'dh_t' },
            ' holds when they were set, because a form sent faster than a person can type is a robot. They last 30 days and are sent only to our own site (over https their names start with ',
            { code: '__Host-' },
            '). With JavaScript off, they are set when you first press Submit.',
          ],
        },
      ],
    },
    {
      heading: 'The Stay Updated form',
      blocks: [
        { p: ['If you sign up, we store:'] },
        {
          ul: [
            ['your name, email address and comment, exactly as you typed them;'],
            [
              'when you signed up, which page the form was on, and which version of the consent wording beside the form you agreed to;',
            ],
            ['whether you have confirmed your address, and when; and whether you have unsubscribed, and when;'],
            ['the city, region and country of the connection you signed up from (not the address itself).'],
          ],
        },
        {
          p: [
            `We first send one email asking you to confirm. Until you click its link, you get nothing else from us; an unconfirmed address is never mailed again unless you sign up again, and then at most once every 15 minutes. Once confirmed, we email you only about ${name}: the presale and news about the project. We do not sell or share your details. Our emails are sent through our mail provider, which sees the address it delivers to.`,
          ],
        },
      ],
    },
    {
      heading: 'The presale allowlist',
      blocks: [
        {
          p: [
            'When the allowlist is open, you can put a wallet address on it by signing a short message in your wallet. The signature proves you hold the address; it costs nothing, sends no transaction and gives no permission to move your funds. We store:',
          ],
        },
        {
          ul: [
            ['the wallet address (it is public on the blockchain anyway) and when it joined;'],
            [
              'the country of the connection it joined from (not the address itself), to see where interest comes from;',
            ],
            [
              'if you choose, right after joining, to be told by email when the presale opens: a link from the wallet address to your sign-up (your email address itself is kept with your sign-up, as above). It counts only once you press the confirmation link; leaving the list, or having your sign-up erased, removes it. The team sees only whether an address has a confirmed email linked, not which one.',
            ],
          ],
        },
        {
          p: [
            'We keep it so that the team can put the list into the presale contract (as a Merkle root) and the presale page can prove an address is on it; the list, and any frozen copy of it, shows only addresses. You can leave the list with another signature at any time; a copy frozen for the sale before you left keeps your address. Your wallet talks to this site only: no wallet service or other third party is contacted by this page.',
          ],
        },
      ],
    },
    {
      heading: 'Stopping emails and erasing your data',
      blocks: [
        {
          p: [
            'Every email we send has a link that stops all further emails at once, with one click. You can also ask us to show you, correct or erase everything we hold about you through our official Telegram or Twitter channels.',
          ],
        },
      ],
    },
    {
      heading: 'Links to other sites',
      blocks: [
        {
          p: [
            'Our Twitter and Telegram buttons take you to those services. What they collect is governed by their own privacy notices.',
          ],
        },
      ],
    },
    {
      heading: 'Credits',
      blocks: [
        {
          p: [
            'Places are looked up in GeoLite2 data created by MaxMind, available from ',
            { link: 'maxmind.com', href: 'https://www.maxmind.com' },
            ', and network operators in data from ',
            { link: 'DB-IP.com', href: 'https://db-ip.com' },
            ', both kept on our own server.',
          ],
        },
      ],
    },
  ],
  backLink: 'Back to the home page',
};
