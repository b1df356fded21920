import { content } from './content.ts';

// Written for what the site really does today. Update it in the same change that alters what is
// collected (sign-up list, visitor analytics).
export function PrivacyPage() {
  return (
    <article className="prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy notice</h1>
      <p>
        This notice explains what the {content.name} ({content.ticker}) website does with information about you. We
        keep it short because we keep very little.
      </p>
      <h2>What we collect when you visit</h2>
      <p>
        Our server answers each request for a page or file. It does not write your IP address to any database, log
        or file. Our server logs record only the time, the address of the page asked for, the answer code and how
        long it took, so that we can keep the site running.
      </p>
      <p>
        We set no cookies for tracking, run no advertising or analytics scripts from other companies, and the page
        loads nothing from any other website: every font, image and script comes from our own server.
      </p>
      <h2>The Stay Updated form</h2>
      <p>
        If you choose to fill in the form, we use your name, email address and comment only to tell you about{' '}
        {content.name}: the presale and news about the project. We do not sell or share them.
      </p>
      <h2>Links to other sites</h2>
      <p>
        Our Twitter and Telegram buttons take you to those services. What they collect is governed by their own
        privacy notices.
      </p>
      <h2>Your rights</h2>
      <p>
        You can ask us to show you, correct or erase anything we hold about you. Every email we send carries a link
        to stop further emails at once.
      </p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </article>
  );
}
