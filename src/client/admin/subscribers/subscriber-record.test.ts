import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SubscriberDetail } from '../../../shared/admin/subscribers.ts';
import { signupFields, type SignupField } from '../../../shared/signup-schema.ts';
import { SubscriberRecord } from './subscriber-record.tsx';

// A person's record says whether mail reaches them, in words: suppressed since when, why, heard
// from where, and the last bounce or complaint; the server matched both by the address's hash.

// What they typed: every field of the sign-up form, so a field the form gains needs nothing here.
const typed = Object.fromEntries(signupFields.map((f) => [f, ''])) as Record<SignupField, string>;
const person: SubscriberDetail = {
  ...typed,
  id: 's1',
  email: 'fan@example.com',
  name: 'Fan',
  comment: '',
  status: 'pending',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  confirmedAt: null,
  unsubscribedAt: null,
  lastConfirmationAt: '2026-11-20T10:00:00.000Z',
  consent: { version: 'v1', text: 'Yes, email me.', at: '2026-11-20T10:00:00.000Z', page: '/' },
  location: { country: null, region: null, city: null },
  locale: 'en',
  emails: [],
  resend: { allowed: false, availableAt: null },
  reads: { today: 1, allowance: 200 },
  mail: { suppressed: null, lastBounce: null },
};
const render = (p: SubscriberDetail) => renderToStaticMarkup(createElement(SubscriberRecord, { person: p }));

describe('a person’s mail status on their record', () => {
  it('says a suppressed address is suppressed, since when, why and heard from where, and the last bounce', () => {
    const html = render({
      ...person,
      mail: {
        suppressed: { since: '2026-11-20T10:05:00.000Z', reason: 'hard-bounce', source: 'dsn', detail: '5.1.1' },
        lastBounce: { at: '2026-11-20T10:05:00.000Z', kind: 'hard', source: 'dsn' },
      },
    });
    expect(html).toContain('Suppressed since');
    expect(html).toContain(
      'The address does not exist (hard bounce), reported as 5.1.1, heard from a bounce report in the bounce mailbox',
    );
    expect(html).toContain('until an owner lifts the suppression');
    expect(html).toMatch(
      /a hard bounce \(the address does not exist\), .*, heard from a bounce report in the bounce mailbox\./,
    );
  });

  it('says mail goes out when nothing stands in the way, and a reason or source it does not know by its code', () => {
    const clear = render(person);
    expect(clear).toContain('Not suppressed: emails to them go out.');
    expect(clear).toContain('None heard.');
    const unknown = render({
      ...person,
      mail: {
        suppressed: { since: '2026-11-20T10:05:00.000Z', reason: 'some-new-reason', source: 'pigeon', detail: null },
        lastBounce: { at: '2026-11-20T10:05:00.000Z', kind: 'policy', source: 'smtp' },
      },
    });
    expect(unknown).toContain('some-new-reason, heard from pigeon');
    expect(unknown).toContain('a refusal by the receiver’s filter (policy or content)');
  });
});
