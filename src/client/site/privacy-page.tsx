import { pagePaths } from '../../shared/paths.ts';
import { content } from './content.ts';

// Written for what the site really does today. Update it in the same change that alters what is
// collected.
export function PrivacyPage() {
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy notice</h1>
      <p>
        This notice explains what the {content.name} ({content.ticker}) website does with information about you. We keep
        it short because we keep very little.
      </p>

      <h2>When you visit</h2>
      <p>
        Our server does not write your IP address to any database, log or file. Its logs record only the time, the page
        asked for, the answer code and how long it took, so that we can keep the site running. To stop floods of fake
        sign-ups, it remembers in memory, for one minute, how many sign-ups came from your network; that count is never
        written down.
      </p>
      <p>
        The page loads nothing from any other website: every font, image and script comes from our own server. We run no
        advertising or analytics scripts from other companies.
      </p>

      <h2>Counting visits</h2>
      <p>
        To know how many people come, from where and to which page, your browser sends us one small message when a page
        has loaded: the page&apos;s address, the address of the site that sent you here, your time zone and your
        language. It sends no cookies and reads nothing stored in your browser. If your browser sends Global Privacy
        Control or Do Not Track, it sends nothing and we count nothing. Search engines and other robots are not counted.
      </p>
      <p>For each visit we store exactly:</p>
      <ul>
        <li>the time, and the page visited;</li>
        <li>only the name of the website that sent you (for example t.co), never the page on it;</li>
        <li>
          the city, region, country, approximate coordinates of that area, postal code, time zone and network operator
          (such as your mobile carrier) that our own copy of a public address database gives for your connection&apos;s
          address; the address itself is looked up in memory on our server and never stored;
        </li>
        <li>your browser&apos;s time zone and language;</li>
        <li>
          a visitor code, so that a person visiting twice in a day counts once: a scrambled mix of your connection
          address and browser name with a random key that changes every day. We delete each day&apos;s key after 48
          hours, after which nobody, including us, can link a code to an address.
        </li>
      </ul>
      <p>
        Visits are kept for 90 days and then deleted; only daily totals (visits per page, site, country and city) are
        kept after that.
      </p>

      <h2>Cookies</h2>
      <p>
        When the page with the sign-up form has loaded, we set three small cookies, only to protect that form, never to
        follow you: <code>XSRF-TOKEN</code> and <code>_csrf</code> prove a sign-up came from our own page and not from
        another website, and <code>dh_t</code> holds when they were set, because a form sent faster than a person can
        type is a robot. They last 30 days and are sent only to our own site (over https their names start with{' '}
        <code>__Host-</code>). With JavaScript off, they are set when you first press Submit.
      </p>

      <h2>The Stay Updated form</h2>
      <p>If you sign up, we store:</p>
      <ul>
        <li>your name, email address and comment, exactly as you typed them;</li>
        <li>
          when you signed up, which page the form was on, and which version of the consent wording beside the form you
          agreed to;
        </li>
        <li>whether you have confirmed your address, and when; and whether you have unsubscribed, and when;</li>
        <li>the city, region and country of the connection you signed up from (not the address itself).</li>
      </ul>
      <p>
        We first send one email asking you to confirm. Until you click its link, you get nothing else from us; an
        unconfirmed address is never mailed again unless you sign up again, and then at most once every 15 minutes. Once
        confirmed, we email you only about {content.name}: the presale and news about the project. We do not sell or
        share your details. Our emails are sent through our mail provider, which sees the address it delivers to.
      </p>

      <h2>The presale allowlist</h2>
      <p>
        When the allowlist is open, you can put a wallet address on it by signing a short message in your wallet. The
        signature proves you hold the address; it costs nothing, sends no transaction and gives no permission to move
        your funds. We store:
      </p>
      <ul>
        <li>the wallet address (it is public on the blockchain anyway) and when it joined;</li>
        <li>
          the country of the connection it joined from (not the address itself), to see where interest comes from.
        </li>
      </ul>
      <p>
        We keep it so that the team can put the list into the presale contract (as a Merkle root) and the presale page
        can prove an address is on it; the list, and any frozen copy of it, shows only addresses. You can leave the list
        with another signature at any time; a copy frozen for the sale before you left keeps your address. Your wallet
        talks to this site only: no wallet service or other third party is contacted by this page.
      </p>

      <h2>Stopping emails and erasing your data</h2>
      <p>
        Every email we send has a link that stops all further emails at once, with one click. You can also ask us to
        show you, correct or erase everything we hold about you through our official Telegram or Twitter channels.
      </p>

      <h2>Links to other sites</h2>
      <p>
        Our Twitter and Telegram buttons take you to those services. What they collect is governed by their own privacy
        notices.
      </p>
      <h2>Credits</h2>
      <p>
        Places are looked up in GeoLite2 data created by MaxMind, available from{' '}
        <a href="https://www.maxmind.com">maxmind.com</a>, and network operators in data from{' '}
        <a href="https://db-ip.com">DB-IP.com</a>, both kept on our own server.
      </p>
      <p>
        <a href={pagePaths.home}>Back to the home page</a>
      </p>
    </article>
  );
}
