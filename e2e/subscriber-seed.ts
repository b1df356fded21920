// Subscribers written straight into the e2e server's database (as admin-support.ts makes
// operators): the console's tests need people in every status and with hostile names, which the
// public form would take many round trips (and a confirmation link each) to make.
import { randomBytes, randomUUID } from 'node:crypto';
import type { SubscriberStatus } from '../src/server/store/schema.ts';
import { withServerStore } from './e2e-target.ts';

export interface Seed {
  name: string;
  email: string;
  status?: SubscriberStatus;
  comment?: string;
}

/** A tag no other test's addresses contain, for searches that find only this test's people. */
export const uniqueTag = (label: string): string => `${label}${randomBytes(3).toString('hex')}`;

/** Inserts the people (a second apart, in order) with the wording the server recorded at start. */
export async function seedSubscribers(people: Seed[]): Promise<string[]> {
  return withServerStore(async (store) => {
    const wording = await store.db
      .selectFrom('consent_wordings')
      .select('version')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    const start = Date.now() - people.length * 1000;
    const ids: string[] = [];
    for (const [i, p] of people.entries()) {
      const at = new Date(start + i * 1000).toISOString();
      const id = randomUUID();
      const status = p.status ?? 'pending';
      await store.db
        .insertInto('subscribers')
        .values({
          id,
          email: p.email,
          email_key: p.email.toLowerCase(),
          name: p.name,
          comment: p.comment ?? '',
          status,
          created_at: at,
          updated_at: at,
          confirmed_at: status === 'confirmed' ? at : null,
          unsubscribed_at: status === 'unsubscribed' ? at : null,
          last_confirmation_at: null,
          consent_version: wording.version,
          consent_at: at,
          consent_page: '/',
          country: 'DE',
          region: 'Land Berlin',
          city: 'Berlin',
        })
        .execute();
      ids.push(id);
    }
    return ids;
  });
}
