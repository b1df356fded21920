import { sql, type Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';

// Wrong authenticator codes per operator, from every network and every instance together, at
// sign-in and as fresh proof: the tenth, each within an hour of the one before, holds the
// operator's codes for an hour (a code is then refused unread; passkeys and recovery codes still
// work). A code is checked only after the right password (or in a signed-in session), so the
// per-network back-off does not bound it: an IPv6 /48 is 65,536 networks. With the ±1 step window
// at most 3 of the 10⁶ codes match at a moment, so each checked code wins with p ≤ 3×10⁻⁶; ten an
// hour is ≤ 0.072 % over a day, ≤ 2.1 % over 30 days, while every hold writes an audit row, a warn
// line, and mails the owners that the password is known.
//
// Kept in the database, not Redis: it guards the second factor, so it must hold across instances
// whether or not Redis is configured or answering. A try is taken BEFORE the code is checked, in
// one INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING on the operator's row: on PostgreSQL the
// conflicting insert locks the row, on SQLite writers are serialised, so codes sent at once can
// never have more than ten checked between them. A right code gives its try back.

export const OPERATOR_WRONG_CODES = 10;
export const OPERATOR_HOLD_MS = 60 * 60_000;

export type CodeTry = { taken: true; number: number } | { taken: false; heldUntil: Date };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Takes one of the operator's tries before a code is checked: its number (1 to
 * OPERATOR_WRONG_CODES; the tenth, if wrong, starts the hold), or when the hold ends. Tries are
 * forgotten an hour after the last one, held or not.
 */
export async function takeCodeTry(db: Kysely<Database>, operatorId: string, now: Date): Promise<CodeTry> {
  const forgetBefore = iso(now.getTime() - OPERATOR_HOLD_MS);
  const row = await db
    .insertInto('operator_code_tries')
    .values({ operator_id: operatorId, tries: 1, last_try_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column('operator_id')
        .doUpdateSet({
          tries: sql<number>`case when operator_code_tries.last_try_at <= ${forgetBefore} then 1 else operator_code_tries.tries + 1 end`,
          last_try_at: (eb) => eb.ref('excluded.last_try_at'),
        })
        .where((eb) =>
          eb.or([
            eb('operator_code_tries.tries', '<', OPERATOR_WRONG_CODES),
            eb('operator_code_tries.last_try_at', '<=', forgetBefore),
          ]),
        ),
    )
    .returning('tries')
    .executeTakeFirst();
  if (row) return { taken: true, number: Number(row.tries) };
  // Refused: the hold's end, read after the refusal (a later try cannot have moved it back).
  const held = await db
    .selectFrom('operator_code_tries')
    .select('last_try_at')
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
  const last = held ? Date.parse(held.last_try_at) : now.getTime();
  return { taken: false, heldUntil: new Date(last + OPERATOR_HOLD_MS) };
}

/**
 * A right code gives its try back: it must not count as a wrong one. The time of the last try is
 * left as it is, so the wrong codes before it are forgotten an hour after this one at the latest:
 * stricter, never looser, than the rule.
 */
export async function giveCodeTryBack(db: Kysely<Database>, operatorId: string): Promise<void> {
  await db
    .updateTable('operator_code_tries')
    .set((eb) => ({ tries: eb('tries', '-', 1) }))
    .where('operator_id', '=', operatorId)
    .where('tries', '>', 0)
    .execute();
}

/** When the operator's codes are held until (a read for what to say, never to take a try), else null. */
export async function codesHeldUntil(db: Kysely<Database>, operatorId: string, now: Date): Promise<Date | null> {
  const row = await db
    .selectFrom('operator_code_tries')
    .select(['tries', 'last_try_at'])
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
  if (!row || Number(row.tries) < OPERATOR_WRONG_CODES) return null;
  const until = Date.parse(row.last_try_at) + OPERATOR_HOLD_MS;
  return until > now.getTime() ? new Date(until) : null;
}
