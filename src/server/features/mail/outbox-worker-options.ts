import type { Kysely } from 'kysely';
import type { Dialect } from '../../store/database.ts';
import type { GroupCommitter } from '../../store/group-commit.ts';
import type { Database } from '../../store/schema.ts';
import type { BroadcastPace } from './broadcast-pace.ts';
import type { Mailer } from './mailer.ts';
import type { Composer, OutboxRow } from './outbox.ts';
import type { Suppressions } from './suppression.ts';
import type { Verp } from './verp.ts';
import type { VisitorFirstPace } from './visitor-first-pace.ts';

// The outbox worker's settings and the defaults of its batches, in a file of their own so the
// worker's pieces (leases, marks, delivery) can read them without importing the worker.

/**
 * Broadcast rows kept leased ahead of the slots, claimed together once no more of them wait on
 * this instance than it may send at once: one claim per this many emails rather than one per email
 * (docs/decisions/0046-broadcast-throughput.md). A pause still stops them: each is composed, and
 * its broadcast read, just before its own send.
 */
export const BROADCAST_LOOKAHEAD = 32;
/**
 * Marks of rows whose email the server took (and of rows cancelled) wait to be written together,
 * one UPDATE and one commit for up to this many, or for MARK_DELAY_MS after the first of them,
 * whichever comes first. A crash in that time may send them again (as a crash between an email's
 * 250 and its mark always could): at most this many, plus those in their SMTP exchange.
 */
export const MARK_BATCH = 32;
export const MARK_DELAY_MS = 250;
/**
 * Rows of other kinds (confirmations) kept leased ahead of the slots grow up to this many while
 * each claim comes back full (a backlog, as after a burst of sign-ups): one claim per this many
 * emails rather than one per email (decision 0051). A short claim (the queue's end) shrinks it back
 * to a slot's worth, so an instance never sits on rows another could be sending.
 */
export const OTHER_LOOKAHEAD_MAX = 32;

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  /** The composer of each kind of email, by kind (registered by the features that own them). */
  kinds: ReadonlyMap<string, Composer>;
  clock?: () => Date;
  /** A send failed (with its row), or the outbox could not be read at all (no row). */
  onError?: (error: unknown, row?: OutboxRow) => void;
  /** The mail server accepted a row's email (and the row is marked sent). */
  onSent?: (row: OutboxRow) => void;
  pollMs?: number;
  batchSize?: number;
  /**
   * Broadcast rows (those with a broadcast_id) this instance sends per second at most
   * (MAIL_RATE_PER_SEC); other rows are never paced and are always claimed first.
   */
  broadcastRatePerSec?: number;
  /** Overrides the per-instance pace made from broadcastRatePerSec (the mail plugin shares it in Redis). */
  pace?: BroadcastPace;
  /**
   * Emails this instance has in the middle of their SMTP exchange at once (MAIL_CONCURRENCY; the
   * mailer's pool holds as many connections). Broadcast rows may fill all but one of them, so a
   * confirmation queued during a broadcast finds a free slot at once. Default 1: one at a time.
   */
  concurrency?: number;
  /**
   * The store's group committer: claims and marks then share a commit (one fsync) with each other
   * and with the sign-ups being written, instead of one commit each. Without it, each is its own.
   */
  committer?: GroupCommitter;
  /**
   * The suppression list: an address on it is never mailed (the row is cancelled just before its
   * SMTP exchange), and the mail server's last word feeds it (5xx: a hard bounce; 4xx until the
   * row is given up: a soft one).
   */
  suppressions?: Suppressions;
  /** Gives each email a VERP envelope sender naming its row, so a later bounce finds it. */
  verp?: Verp;
  /** Overrides BROADCAST_LOOKAHEAD, MARK_BATCH and MARK_DELAY_MS (tests). */
  broadcastLookahead?: number;
  markBatch?: number;
  markDelayMs?: number;
  /**
   * Spaces the emails while visitors are arriving and the event loop is busy (decision 0051);
   * unset: every email starts as soon as a slot is free. A pass on demand (runOnce) is never paced.
   */
  visitorPace?: VisitorFirstPace;
}

/**
 * Transactions a worker has asked for (claims, marks, failures and releases): the tests and the
 * bench divide them by the emails sent, the database's cost per email (decision 0046).
 */
export interface OutboxWrites {
  claims: number;
  marks: number;
  others: number;
  rowsMarked: number;
}
