import { approvalRefusal, type Broadcast } from '../../../shared/admin/broadcast-schema.ts';
import { roleAllows } from '../../../shared/admin/roles.ts';
import { useConsole } from '../console/console-context.tsx';
import { formatTime } from '../console/format.ts';

/**
 * A draft's second pair of eyes (decision 0028): who wrote and last edited it, whether a second
 * operator approved this very text (or whose edit voided, or who revoked, the last approval), and
 * the Approve and Revoke buttons for whoever may press them. With BROADCAST_APPROVALS=1 it says, in
 * red, that nobody checks sends. The server decides every one of these; this only shows them.
 */
export function BroadcastApproval({
  broadcast: b,
  dirty,
  busy,
  onApprove,
  onRevoke,
}: {
  broadcast: Broadcast;
  /** The editor holds changes not saved yet: what would be approved is not what is on screen. */
  dirty: boolean;
  busy: boolean;
  onApprove: () => void;
  onRevoke: () => void;
}) {
  const { email, role } = useConsole();
  const cannot = approvalRefusal({ email, role }, b);
  const lapsed = b.lapsedApproval;
  return (
    <div className="cs-approval" data-testid="bc-approval">
      <h2>Second pair of eyes</h2>
      {b.approvalsRequired === 1 ? (
        <p className="cs-approval-alone" role="note">
          Nobody else checks what is sent: BROADCAST_APPROVALS=1 lets one operator send alone, and each such send is
          recorded as unapproved in the audit log.
        </p>
      ) : null}
      <p className="cs-muted">
        Written by {b.createdBy} {formatTime(b.createdAt)}
        {b.updatedBy !== b.createdBy || b.updatedAt !== b.createdAt
          ? `; last edited by ${b.updatedBy} ${formatTime(b.updatedAt)}`
          : ''}
        .
      </p>
      {b.editors.length > 0 && b.approvalsRequired === 2 ? (
        <p className="cs-muted" data-testid="bc-approval-editors">
          Changed since an approval last covered it by {b.editors.join(', ')}: none of them may approve it.
        </p>
      ) : null}
      {b.approval ? (
        <p data-testid="bc-approval-state">
          Approved by {b.approval.by} {formatTime(b.approval.at)}: this exact text may be sent.
        </p>
      ) : (
        <p data-testid="bc-approval-state">
          {b.approvalsRequired === 2
            ? 'Not approved yet: a second operator (a sender or an owner who neither wrote nor edited it) must approve this text before it can be sent.'
            : 'Not approved (not needed with BROADCAST_APPROVALS=1).'}
        </p>
      )}
      {lapsed ? (
        <p className="cs-muted" data-testid="bc-approval-lapsed">
          Approved by {lapsed.approvedBy} {formatTime(lapsed.approvedAt)} —{' '}
          {lapsed.reason === 'edit'
            ? `voided by ${lapsed.by}’s edit ${formatTime(lapsed.at)}`
            : `revoked by ${lapsed.by} ${formatTime(lapsed.at)}`}
          .
        </p>
      ) : null}
      <div className="cs-actions">
        {!cannot && !b.refusal ? (
          <button type="button" disabled={busy || dirty} onClick={onApprove}>
            Approve this text
          </button>
        ) : null}
        {b.approval && roleAllows(role, 'sender') ? (
          <button type="button" className="cs-secondary" disabled={busy} onClick={onRevoke}>
            Revoke the approval
          </button>
        ) : null}
      </div>
      {!cannot && dirty ? (
        <p className="cs-muted">Save your changes first: an approval is for the text as saved.</p>
      ) : null}
    </div>
  );
}
