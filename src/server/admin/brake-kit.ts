// Tests of the broadcast brake: the mail feature's bounce path wired as admin-plugin.ts wires it.
// Events go through the real intake (a report matched by its VERP address), which the admin
// feature's own code never imports.
/* eslint-disable no-restricted-imports */
import { BounceIntake } from '../mail/bounces.ts';
import { Verp } from '../mail/verp.ts';
/* eslint-enable no-restricted-imports */
import type { Kysely } from 'kysely';
import { Suppressions } from '../mail/outbox.ts';
import type { Database } from '../store/schema.ts';
import { testSecrets } from '../test/test-store.ts';
import { brakeBroadcasts } from './broadcast-brake.ts';

export function brakeKit(db: Kysely<Database>): { verp: Verp; suppressions: Suppressions; intake: BounceIntake } {
  const secrets = testSecrets();
  const verp = new Verp(secrets, 'dh.example');
  const suppressions = new Suppressions(secrets);
  suppressions.onStored(brakeBroadcasts);
  return { verp, suppressions, intake: new BounceIntake(db, suppressions, verp, () => {}) };
}
