import type { PageChromeMessages } from '../../../../content/messages/en/page-chrome.ts';
import { content } from '../content.ts';

export function SocialLinks({ className = 'social', words }: { className?: string; words: PageChromeMessages }) {
  const { twitter, telegram } = content.social;
  return (
    <ul className={className}>
      {[twitter, telegram].map((link) => (
        <li key={link.url}>
          <a className="button button-social" href={link.url} rel="noopener noreferrer" target="_blank">
            {link.label}
            <span className="visually-hidden">{` ${words.opensInNewTab}`}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
