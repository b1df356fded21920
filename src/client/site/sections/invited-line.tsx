import { usePage } from '../page-context.tsx';

// The one line a visitor who came through a friend's invite link reads above the page (the page is
// otherwise the same); it leads to the form, which carries the code. Server-rendered, no script.
export function InvitedLine() {
  const { words } = usePage();
  return (
    <p className="invited-line" role="note">
      <a href="#stay-updated">{words.referrals.invitedLine}</a>
    </p>
  );
}
