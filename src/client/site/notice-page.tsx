import { pagePaths } from '../../shared/paths.ts';
import type { Notice } from '../../shared/site-pages.ts';
import { usePage } from './page-context.tsx';
import { InviteShare } from './sections/invite-share.tsx';

// The page an email link opens. Opening it changes nothing (mail scanners open every link); when
// there is something to do, the one button posts a plain form, so it works without JavaScript.
export function NoticePage({ notice }: { notice: Notice | undefined }) {
  const { content, words: all, href } = usePage();
  const words = all.pageChrome;
  const action = notice?.action;
  return (
    <section className="prose notice" aria-labelledby="notice-title">
      <h1 id="notice-title">{notice?.title ?? content.name}</h1>
      <p>{notice?.message}</p>
      {notice?.wallet ? (
        <p className="notice-wallet">
          <bdi dir="ltr">
            <span className="wallet-address">{notice.wallet}</span>
          </bdi>
        </p>
      ) : null}
      {notice?.invite ? <InviteShare invite={notice.invite} /> : null}
      {action ? (
        <form method="post" action={action.href} aria-labelledby="notice-title">
          {Object.entries(action.fields ?? {}).map(([name, value]) => (
            <input key={name} type="hidden" name={name} defaultValue={value} />
          ))}
          <p>
            <button className="button button-primary" type="submit">
              {action.label}
            </button>
          </p>
        </form>
      ) : null}
      <p>
        {action ? (
          <a href={href(pagePaths.home)}>{words.homeLink}</a>
        ) : (
          <a className="button button-primary" href={href(pagePaths.home)}>
            {words.homeLink}
          </a>
        )}
      </p>
    </section>
  );
}
