import type { SignupsByInvite } from '../../../shared/admin/referrals.ts';

const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The period's sign-ups with an invite link and without, and how many of each confirmed. */
export function InviteSignups({ invites }: { invites: SignupsByInvite }) {
  const rows = [
    ['Through an invite link', invites.invited],
    ['Without an invite', invites.direct],
  ] as const;
  return (
    <div className="cs-top">
      <h2>Sign-ups by invite</h2>
      <table className="cs-table">
        <caption className="cs-visually-hidden">Sign-ups and confirmations, with and without an invite</caption>
        <thead>
          <tr>
            <th scope="col">How they came</th>
            <th scope="col">Sign-ups</th>
            <th scope="col">Confirmed</th>
            <th scope="col">Conversion</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, g]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td data-label="Sign-ups">{g.signups}</td>
              <td data-label="Confirmed">{g.confirmed}</td>
              <td data-label="Conversion">{percent(g.conversion)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cs-hint">Conversion: confirmed per sign-up in the period (people erased since are not counted).</p>
    </div>
  );
}
