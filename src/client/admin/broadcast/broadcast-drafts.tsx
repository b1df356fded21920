import type { BroadcastList } from '../../../shared/admin/broadcast-schema.ts';

/** The drafts not shown in the composer, each to open (another operator's, waiting for approval). */
export function OtherDrafts({
  drafts,
  busy,
  onOpen,
}: {
  drafts: BroadcastList['broadcasts'];
  busy: boolean;
  onOpen: (id: string) => void;
}) {
  if (!drafts.length) return null;
  return (
    <div>
      <h2>Other drafts</h2>
      <ul className="cs-drafts">
        {drafts.map((d) => (
          <li key={d.id}>
            <button type="button" className="cs-secondary" disabled={busy} onClick={() => onOpen(d.id)}>
              Open “{d.subject}”
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
