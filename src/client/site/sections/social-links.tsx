import { content } from '../content.ts';

export function SocialLinks({ className = 'social' }: { className?: string }) {
  const { twitter, telegram } = content.social;
  return (
    <ul className={className}>
      {[twitter, telegram].map((link) => (
        <li key={link.url}>
          <a className="button button-social" href={link.url} rel="noopener noreferrer" target="_blank">
            {link.label}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
