import type { InviteView } from '../../../shared/referrals.ts';
import { Island } from '../islands/island.tsx';
import { usePage } from '../page-context.tsx';

// A confirmed person's invite link (the confirmed page, the invite page): the link to read and
// select (JavaScript off too), a copy button (a tiny island; hidden without script), plain share
// links (no third-party script) and how many confirmed people came through it. Never who.
export function InviteShare({ invite }: { invite: InviteView }) {
  const { words } = usePage();
  const w = words.referrals;
  return (
    <section className="invite-share" aria-labelledby="invite-share-title">
      <h2 id="invite-share-title">{w.blockHeading}</h2>
      <label htmlFor="invite-link">{w.linkLabel}</label>
      <Island name="copy" props={{ copied: w.copied }}>
        <p className="invite-link-row">
          <input id="invite-link" className="invite-link" type="text" readOnly value={invite.url} data-invite-link="" />
          <button className="button invite-copy" type="button" data-invite-copy="">
            {w.copy}
          </button>
        </p>
      </Island>
      <p className="invite-count" data-invite-count={invite.count}>
        {w.count({ count: invite.count })}
      </p>
      <p className="invite-share-links">
        {w.shareLabel}{' '}
        <a href={invite.share.x} rel="noopener noreferrer" target="_blank">
          {w.shareX}
        </a>{' '}
        <a href={invite.share.telegram} rel="noopener noreferrer" target="_blank">
          {w.shareTelegram}
        </a>{' '}
        <a href={invite.share.email}>{w.shareEmail}</a>
      </p>
      {invite.reward ? (
        <>
          <h3>{w.rewardHeading}</h3>
          <p className="invite-reward">{invite.reward}</p>
        </>
      ) : null}
      {invite.pageUrl ? (
        <p>
          <a href={invite.pageUrl}>{w.pageLink}</a>
        </p>
      ) : null}
    </section>
  );
}
