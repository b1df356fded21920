import { languageName } from '../../../shared/admin/locale-names.ts';
import type { SubscriberListItem, SubscriberStatusName } from '../../../shared/admin/subscribers.ts';
import { formatTime } from '../console/format.ts';

export const statusLabel: Record<SubscriberStatusName, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

/**
 * The masked list: an address shows as its first character and its domain, with no name, city or
 * comment; "Show details" reads one person's record on purpose (audited, decision 0029).
 */
export function SubscriberTable(props: {
  items: SubscriberListItem[];
  selected: string | null;
  sort: 'newest' | 'oldest';
  onSelect: (id: string) => void;
}) {
  const { items, selected, sort, onSelect } = props;
  return (
    <div className="cs-table-wrap">
      <table className="cs-table">
        <caption className="cs-visually-hidden">
          Subscribers, {sort === 'newest' ? 'newest' : 'oldest'} first; addresses masked
        </caption>
        <thead>
          <tr>
            <th scope="col">Email (masked)</th>
            <th scope="col">Status</th>
            <th scope="col">Signed up</th>
            <th scope="col">Country</th>
            <th scope="col">Language</th>
            <th scope="col">
              <span className="cs-visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <tr key={s.id} aria-selected={s.id === selected}>
              <td data-label="Email">{s.maskedEmail}</td>
              <td data-label="Status">
                <span className={`cs-badge cs-badge-${s.status}`}>{statusLabel[s.status]}</span>
              </td>
              <td data-label="Signed up">{formatTime(s.createdAt)}</td>
              <td data-label="Country">{s.country ?? 'Unknown'}</td>
              <td data-label="Language">{languageName(s.locale)}</td>
              <td>
                <button
                  type="button"
                  className="cs-link"
                  onClick={() => onSelect(s.id)}
                  aria-label={`Show the details of ${s.maskedEmail}, signed up ${formatTime(s.createdAt)}`}
                >
                  Show details
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
