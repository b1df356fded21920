import type { PageChromeMessages } from '../../../content/messages/en/page-chrome.ts';
import { NoticePage } from './notice-page.tsx';

export function NotFoundPage({ words }: { words: PageChromeMessages }) {
  const { title, message } = words.notFound;
  return <NoticePage notice={{ title, message }} words={words} />;
}
