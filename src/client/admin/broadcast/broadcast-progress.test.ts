import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Broadcast } from '../../../shared/admin/broadcast-schema.ts';
import { ConsoleContext, type ConsoleContextValue } from '../console/console-context.tsx';
import { BroadcastProgressView } from './broadcast-progress.tsx';

// The broadcast screen while it goes out: what came back, and why it stopped itself
// (docs/decisions/0035-bounces-complaints-and-suppression.md, "A broadcast that stops itself").

const reason = 'Hard bounces reached 5.11 % (46 of 900 sent), above the 5 % limit.';
const automaticPause = { reason, at: '2026-11-24T11:05:00.000Z', overriddenBy: null };
const paused: Broadcast = {
  id: 'b1',
  subject: 'The presale is near',
  body: 'Hello.',
  translations: {},
  englishFallback: true,
  state: 'paused',
  createdBy: 'ann@example.com',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedBy: 'ann@example.com',
  updatedAt: '2026-11-24T10:00:00.000Z',
  editors: [],
  sentBy: 'ann@example.com',
  sentAt: '2026-11-24T11:00:00.000Z',
  refusal: null,
  textHash: 'a'.repeat(64),
  approvalsRequired: 2,
  approval: { by: 'bob@example.com', at: '2026-11-24T10:30:00.000Z' },
  lapsedApproval: null,
  progress: {
    recipients: 1000,
    queued: 97,
    sent: 900,
    failed: 0,
    skipped: 0,
    cancelled: 0,
    etaSeconds: null,
    failures: [],
    delivered: 854,
    bounced: { hard: 46, soft: 2, policy: 0 },
    complained: 1,
    suppressed: 3,
  },
  automaticPause,
};

function render(b: Broadcast): string {
  const value: ConsoleContextValue = {
    email: 'ann@example.com',
    role: 'sender',
    signedOut: () => undefined,
    withFreshProof: (action) => action(),
  };
  const view = createElement(BroadcastProgressView, {
    broadcast: b,
    onChange: () => undefined,
    onNew: () => undefined,
  });
  return renderToStaticMarkup(createElement(ConsoleContext.Provider, { value }, view));
}

describe('the broadcast progress view', () => {
  it('shows sent, delivered as far as known, bounced, complained and suppressed', () => {
    const html = render(paused);
    expect(html).toMatch(/data-testid="bc-delivered">854</);
    expect(html).toMatch(/data-testid="bc-bounced">46 \/ 2</);
    expect(html).toMatch(/data-testid="bc-complained">1</);
    expect(html).toMatch(/data-testid="bc-suppressed">3</);
    expect(html).toContain('opens are not tracked, so it never means “read”');
  });

  it('says in words why it paused itself, and that resuming overrides it', () => {
    const html = render(paused);
    expect(html).toContain('This broadcast paused itself');
    expect(html).toContain(reason);
    expect(html).toContain('Resume anyway (override the automatic pause)');
  });

  it('after an override, says who resumed it, with no alert and a plain Pause', () => {
    const html = render({
      ...paused,
      state: 'sending',
      automaticPause: { ...automaticPause, overriddenBy: 'bob@example.com' },
    });
    expect(html).not.toContain('role="alert"');
    expect(html).toContain('bob@example.com resumed it anyway');
  });

  it('an operator’s pause is only “Paused”, with a plain Resume', () => {
    const html = render({ ...paused, automaticPause: null });
    expect(html).not.toContain('paused itself');
    expect(html).toMatch(/>Resume</);
  });
});
