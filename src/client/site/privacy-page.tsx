import { content } from './content.ts';

// Written for what the site really does today. Update it in the same change that alters what is
// collected.
export function PrivacyPage() {
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy notice</h1>
      <p>
        This notice explains what the {content.name} ({content.ticker}) website does with information about you. We
        keep it short because we keep very little.
      </p>

      <h2>When you visit</h2>
      <p>
        Our server does not write your IP address to any database, log or file. Its logs record only the time, the
        page asked for, the answer code and how long it took, so that we can keep the site running. To stop floods of
        fake sign-ups, it remembers in memory, for one minute, how many sign-ups came from your network; that count is
        never written down.
      </p>
      <p>
        The page loads nothing from any other website: every font, image and script comes from our own server. We run
        no advertising or analytics scripts from other companies.
      </p>

      <h2>Cookies</h2>
      <p>
        We set three small cookies, only to protect the sign-up form, never to follow you: <code>XSRF-TOKEN</code> and{' '}
        <code>_csrf</code> prove a sign-up came from our own page and not from another website, and <code>dh_t</code>{' '}
        holds the time you first opened the page, because a form sent faster than a person can type is a robot. They
        last 30 days and are sent only to our own site.
      </p>

      <h2>The Stay Updated form</h2>
      <p>If you sign up, we store:</p>
      <ul>
        <li>your name, email address and comment, exactly as you typed them;</li>
        <li>
          when you signed up, which page the form was on, and which version of the consent wording beside the form you
          agreed to;
        </li>
        <li>whether you have confirmed your address, and when; and whether you have unsubscribed, and when.</li>
      </ul>
      <p>
        We first send one email asking you to confirm. Until you click its link, you get nothing else from us; an
        unconfirmed address is never mailed again unless you sign up again, and then at most once every 15 minutes.
        Once confirmed, we email you only about {content.name}: the presale and news about the project. We do not sell
        or share your details. Our emails are sent through our mail provider, which sees the address it delivers to.
      </p>

      <h2>Stopping emails and erasing your data</h2>
      <p>
        Every email we send has a link that stops all further emails at once, with one click. You can also ask us to
        show you, correct or erase everything we hold about you through our official Telegram or Twitter channels.
      </p>

      <h2>Links to other sites</h2>
      <p>
        Our Twitter and Telegram buttons take you to those services. What they collect is governed by their own
        privacy notices.
      </p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </article>
  );
}
