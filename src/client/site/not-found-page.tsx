import { usePage } from './page-context.tsx';
import { NoticePage } from './notice-page.tsx';

export function NotFoundPage() {
  const { title, message } = usePage().words.pageChrome.notFound;
  return <NoticePage notice={{ title, message }} />;
}
