import { roleAllows } from '../../../shared/admin/roles.ts';
import type { Broadcast } from '../../../shared/admin/broadcast-schema.ts';
import {
  cancelBroadcastContract,
  pauseBroadcastContract,
  resumeBroadcastContract,
  type BroadcastChangeContract,
} from '../../../shared/admin/contracts.ts';
import { useConsole } from '../console/console-context.tsx';
import { formatTime } from '../console/format.ts';

const eta = (seconds: number | null): string => {
  if (seconds === null) return '—';
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `about ${minutes} min` : `about ${Math.round(minutes / 6) / 10} h`;
};

/**
 * A broadcast on its way: where every recipient stands, and Pause (anyone signed in: the
 * emergency stop), Resume and Cancel (senders; the server refuses the rest anyway).
 */
export function BroadcastProgressView({
  broadcast: b,
  onChange,
  onNew,
}: {
  broadcast: Broadcast;
  onChange: (contract: BroadcastChangeContract) => void;
  onNew: () => void;
}) {
  const { role } = useConsole();
  const sender = roleAllows(role, 'sender');
  const p = b.progress;
  const stateWords = { draft: 'Draft', sending: 'Sending', paused: 'Paused', cancelled: 'Cancelled', done: 'Sent' }[
    b.state
  ];
  return (
    <div aria-labelledby="bc-progress-title">
      <h2 id="bc-progress-title">
        “{b.subject}”: <span data-testid="bc-state">{stateWords}</span>
      </h2>
      <p className="cs-muted">
        Sent by {b.sentBy ?? '—'} {b.sentAt ? formatTime(b.sentAt) : ''}
        {b.approval ? `, approved by ${b.approval.by} ${formatTime(b.approval.at)}` : ', approved by nobody'}; written
        by {b.createdBy}
        {b.updatedBy !== b.createdBy ? `, last edited by ${b.updatedBy}` : ''}
      </p>
      {b.state === 'paused' && b.automaticPause && !b.automaticPause.overriddenBy ? (
        <div role="alert" className="cs-notice cs-notice-error" data-testid="bc-auto-paused">
          <p>
            <strong>This broadcast paused itself</strong> {formatTime(b.automaticPause.at)}: {b.automaticPause.reason}
          </p>
          <p>
            Mailbox providers throttle or block senders past these rates. Nothing more goes out until an operator
            decides: look at the bounces and complaints first; resume only if you know why they came (and that it will
            not go on), or cancel the rest.
          </p>
        </div>
      ) : null}
      {b.automaticPause?.overriddenBy ? (
        <p className="cs-muted" data-testid="bc-auto-pause-overridden">
          It paused itself ({b.automaticPause.reason}); {b.automaticPause.overriddenBy} resumed it anyway, so it will
          not pause itself again.
        </p>
      ) : null}
      <dl className="cs-progress" data-testid="bc-progress">
        <dt>Recipients</dt>
        <dd>{p.recipients}</dd>
        <dt>Queued</dt>
        <dd>{p.queued}</dd>
        <dt>Sent</dt>
        <dd data-testid="bc-sent">{p.sent}</dd>
        <dt>Failed</dt>
        <dd>{p.failed}</dd>
        <dt>Skipped (unsubscribed meanwhile)</dt>
        <dd>{p.skipped}</dd>
        <dt>Not sent (address suppressed)</dt>
        <dd data-testid="bc-suppressed">{p.suppressed}</dd>
        <dt>Delivered, as far as known</dt>
        <dd data-testid="bc-delivered">{p.delivered}</dd>
        <dt>Bounced (hard / soft)</dt>
        <dd data-testid="bc-bounced">
          {p.bounced.hard} / {p.bounced.soft}
        </dd>
        <dt>Refused by the receiver’s filter (policy)</dt>
        <dd data-testid="bc-policy">{p.bounced.policy}</dd>
        <dt>Complained (marked as spam)</dt>
        <dd data-testid="bc-complained">{p.complained}</dd>
        {p.cancelled ? (
          <>
            <dt>Not sent (cancelled)</dt>
            <dd>{p.cancelled}</dd>
          </>
        ) : null}
        <dt>Time left</dt>
        <dd>{eta(p.etaSeconds)}</dd>
      </dl>
      <p className="cs-muted">
        “Delivered” is sent minus the hard bounces heard so far: bounces can come back days later, and opens are not
        tracked, so it never means “read”.
      </p>
      {p.failures.length ? (
        <>
          <h3>Why some failed</h3>
          <ul>
            {p.failures.map((f) => (
              <li key={f.reason}>
                {f.count} × {f.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="cs-actions">
        {b.state === 'sending' ? (
          <button type="button" className="cs-secondary" onClick={() => onChange(pauseBroadcastContract)}>
            Pause
          </button>
        ) : null}
        {b.state === 'paused' && sender ? (
          <button type="button" onClick={() => onChange(resumeBroadcastContract)}>
            {b.automaticPause && !b.automaticPause.overriddenBy
              ? 'Resume anyway (override the automatic pause)'
              : 'Resume'}
          </button>
        ) : null}
        {b.state === 'sending' || b.state === 'paused' ? (
          sender ? (
            <button type="button" className="cs-danger" onClick={() => onChange(cancelBroadcastContract)}>
              Cancel the rest
            </button>
          ) : null
        ) : (
          <button type="button" onClick={onNew}>
            Write a new broadcast
          </button>
        )}
      </div>
    </div>
  );
}
