import { usePage } from '../page-context.tsx';

export function SocialLinks({ className = 'social' }: { className?: string }) {
  const { content, words: all } = usePage();
  const words = all.pageChrome;
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
