import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { noProgress, type Broadcast } from '../../../shared/admin/broadcast-schema.ts';
import type { OperatorRole } from '../../../shared/admin/roles.ts';
import { ConsoleContext, type ConsoleContextValue } from '../console/console-context.tsx';
import { BroadcastApproval } from './broadcast-approval.tsx';

// What the approval panel shows whom (decision 0028). The server decides each of these; the panel
// must not offer a button the server would refuse, nor hide the warning of a team of one.

const draft: Broadcast = {
  id: 'b1',
  subject: 'The presale is near',
  body: 'Hello **holders**.',
  translations: {},
  englishFallback: true,
  state: 'draft',
  createdBy: 'ann@example.com',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedBy: 'ann@example.com',
  updatedAt: '2026-11-24T10:00:00.000Z',
  editors: [],
  sentBy: null,
  sentAt: null,
  refusal: null,
  textHash: 'a'.repeat(64),
  approvalsRequired: 2,
  approval: null,
  lapsedApproval: null,
  progress: noProgress(),
  automaticPause: null,
};

function render(b: Broadcast, email: string, role: OperatorRole, dirty = false): string {
  const value: ConsoleContextValue = {
    email,
    role,
    signedOut: () => undefined,
    withFreshProof: (action) => action(),
  };
  const panel = createElement(BroadcastApproval, {
    broadcast: b,
    dirty,
    busy: false,
    onApprove: () => undefined,
    onRevoke: () => undefined,
  });
  return renderToStaticMarkup(createElement(ConsoleContext.Provider, { value }, panel));
}

describe('the broadcast approval panel', () => {
  it('offers Approve to a second sender, never to the author, the last editor or a viewer', () => {
    expect(render(draft, 'bob@example.com', 'sender')).toContain('Approve this text');
    expect(render(draft, 'ann@example.com', 'owner')).not.toContain('Approve this text');
    expect(render({ ...draft, updatedBy: 'bob@example.com' }, 'bob@example.com', 'owner')).not.toContain(
      'Approve this text',
    );
    expect(render(draft, 'vic@example.com', 'viewer')).not.toContain('Approve this text');
    // Nor to one who edited before the last editor, with no approval since (A writes, B edits, A edits).
    const abA = { ...draft, updatedBy: 'ann@example.com', editors: ['bob@example.com', 'ann@example.com'] };
    expect(render(abA, 'bob@example.com', 'sender')).not.toContain('Approve this text');
    expect(render(abA, 'cat@example.com', 'sender')).toContain('Approve this text');
    expect(render(abA, 'cat@example.com', 'sender')).toContain(
      'Changed since an approval last covered it by bob@example.com, ann@example.com',
    );
    // Nor for a text the address guard refuses.
    expect(
      render({ ...draft, refusal: 'This broadcast contains an Ethereum address' }, 'bob@example.com', 'sender'),
    ).not.toContain('Approve this text');
  });

  it('names the approver, and says whose edit voided an approval or who revoked it', () => {
    const approved = render(
      { ...draft, approval: { by: 'bob@example.com', at: '2026-11-24T10:05:00.000Z' } },
      'ann@example.com',
      'sender',
    );
    expect(approved).toContain('Approved by bob@example.com');
    expect(approved).toContain('Revoke the approval');
    const voided = render(
      {
        ...draft,
        updatedBy: 'cat@example.com',
        lapsedApproval: {
          approvedBy: 'bob@example.com',
          approvedAt: '2026-11-24T10:05:00.000Z',
          by: 'cat@example.com',
          at: '2026-11-24T10:07:00.000Z',
          reason: 'edit',
        },
      },
      'ann@example.com',
      'sender',
    );
    expect(voided).toMatch(/Approved by bob@example\.com .* — voided by cat@example\.com’s edit/);
    expect(voided).toContain('last edited by cat@example.com');
    const revoked = render(
      {
        ...draft,
        lapsedApproval: {
          approvedBy: 'bob@example.com',
          approvedAt: '2026-11-24T10:05:00.000Z',
          by: 'dan@example.com',
          at: '2026-11-24T10:07:00.000Z',
          reason: 'revoked',
        },
      },
      'ann@example.com',
      'sender',
    );
    expect(revoked).toMatch(/— revoked by dan@example\.com/);
    // A viewer sees the state, and no Revoke.
    expect(
      render(
        { ...draft, approval: { by: 'bob@example.com', at: '2026-11-24T10:05:00.000Z' } },
        'vic@example.com',
        'viewer',
      ),
    ).not.toContain('Revoke');
  });

  it('says in red that nobody checks sends when BROADCAST_APPROVALS=1', () => {
    const alone = render({ ...draft, approvalsRequired: 1 }, 'ann@example.com', 'owner');
    expect(alone).toMatch(/<p class="cs-approval-alone"[^>]*>Nobody else checks what is sent: BROADCAST_APPROVALS=1/);
    expect(render(draft, 'ann@example.com', 'owner')).not.toContain('cs-approval-alone');
  });

  it('keeps Approve pressed off while the editor holds unsaved changes', () => {
    expect(render(draft, 'bob@example.com', 'sender', true)).toMatch(
      /<button type="button" disabled="">Approve this text/,
    );
  });
});
