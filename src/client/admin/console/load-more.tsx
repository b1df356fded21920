/** The "next page" button under a keyset-paged console list; nothing when there is no next page. */
export function LoadMore({
  cursor,
  busy,
  label,
  onLoad,
}: {
  cursor: string | null;
  busy: boolean;
  label: string;
  onLoad: () => void;
}) {
  if (!cursor) return null;
  return (
    <div className="cs-actions">
      <button type="button" className="cs-secondary" disabled={busy} onClick={onLoad}>
        {busy ? 'Loading…' : label}
      </button>
    </div>
  );
}
