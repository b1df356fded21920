import { NoticePage } from './notice-page.tsx';

export function NotFoundPage() {
  return (
    <NoticePage
      notice={{
        title: 'Page not found',
        message: 'There is nothing at this address. Diamond hands hold; this link didn’t.',
      }}
    />
  );
}
