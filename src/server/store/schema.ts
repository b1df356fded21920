import type { Generated } from 'kysely';
import type { SignupField, SignupInput, SignupWireInput } from '../../shared/signup-schema.ts';

// Times are ISO-8601 UTC strings (`2026-11-21T12:00:00.000Z`) in both dialects: they sort as text,
// read the same in SQLite and PostgreSQL, and `substr(t, 1, 10)` is the day in both.
// See docs/decisions/0005-store.md.
export type IsoTime = string;

export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed';

/**
 * What a person typed, one column per field of the sign-up form, named as the field
 * (src/shared/signup-schema.ts): a field added there is a column here, and its migration adds it.
 * A field the schema defaults (the comment: '') has the same default in its column, so a row
 * written without it (a seed, an import) takes it.
 */
type TypedColumns = {
  [K in SignupField]: undefined extends SignupWireInput[K] ? Generated<SignupInput[K]> : SignupInput[K];
};

export interface SubscribersTable extends TypedColumns {
  id: string;
  /** Lower-cased email: the identity of an address for duplicates and search. */
  email_key: string;
  status: SubscriberStatus;
  created_at: IsoTime;
  updated_at: IsoTime;
  confirmed_at: IsoTime | null;
  unsubscribed_at: IsoTime | null;
  last_confirmation_at: IsoTime | null;
  consent_version: string;
  consent_at: IsoTime;
  consent_page: string;
  country: string | null;
  region: string | null;
  city: string | null;
  /** The locale of the page they signed up on (src/shared/locales.ts); 'en' for rows older than migration 0018. */
  locale: Generated<string>;
}

export interface ConsentWordingsTable {
  version: string;
  text: string;
  created_at: IsoTime;
}

// Which email a row is (e.g. 'confirmation'); each kind's composer is registered by its feature.
export type OutboxKind = string;
export type OutboxStatus = 'pending' | 'sent' | 'failed' | 'cancelled';

export interface OutboxTable {
  id: string;
  kind: OutboxKind;
  subscriber_id: string;
  status: OutboxStatus;
  attempts: Generated<number>;
  next_attempt_at: IsoTime;
  /** Confirmation emails: hash of the link token made when the email was sent. */
  token_hash: string | null;
  token_expires_at: IsoTime | null;
  locked_by: string | null;
  locked_until: IsoTime | null;
  last_error: string | null;
  created_at: IsoTime;
  sent_at: IsoTime | null;
  /** The broadcast this row is one recipient of (migration 0006); null for other kinds. */
  broadcast_id: string | null;
}

export type BroadcastStatus = 'draft' | 'sending' | 'paused' | 'cancelled';

export interface BroadcastsTable {
  id: string;
  subject: string;
  body: string;
  status: BroadcastStatus;
  created_by: string;
  created_at: IsoTime;
  updated_at: IsoTime;
  sent_by: string | null;
  sent_at: IsoTime | null;
  recipients: number | null;
  /** The last operator who changed the text (migration 0012; null only on rows older than it). */
  updated_by: string | null;
  /** The second operator's approval, bound to `approved_hash` (SHA-256 of subject and body). */
  approved_by: string | null;
  approved_at: IsoTime | null;
  approved_hash: string | null;
  /** The approval that lapsed last: whose it was, and who ended it, when, how. */
  lapsed_approved_by: string | null;
  lapsed_approved_at: IsoTime | null;
  lapsed_by: string | null;
  lapsed_at: IsoTime | null;
  lapsed_reason: 'edit' | 'revoked' | null;
  /** Who paused it last: 'automatic' (its own bounce or complaint rate), or the operator (migration 0017). */
  paused_by: string | null;
  /** Why, in words, for an automatic pause (the rate and the sample); null for an operator's. */
  paused_reason: string | null;
  paused_at: IsoTime | null;
  /** The operator who resumed it over an automatic pause. */
  pause_overridden_by: string | null;
  /**
   * The versions in other locales than English (`subject` and `body` are English's), as JSON:
   * `{"es":{"subject":…,"body":…}}` (migration 0021; '{}' on older rows).
   */
  translations: string;
  /** 1: a locale without a version of its own gets English; 0: every locale needs one. */
  english_fallback: number;
  /**
   * JSON array of the operators who changed the text since an approval last covered their change
   * (migration 0026): none of them may approve it (broadcast-store.ts).
   */
  editors: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** Keys that sign links in emails (see migrations/0003-link-keys.ts): the newest signs, all verify. */
export interface LinkKeysTable {
  id: string;
  /** Encrypted under the data key since migration 0009 (store/secret-box.ts). */
  secret: string;
  created_at: IsoTime;
}

export interface AbuseCountersTable {
  day: string;
  reason: string;
  count: number;
}

export interface VisitsTable {
  at: IsoTime;
  day: string;
  path: string;
  referrer_host: string;
  visitor_hash: string;
  city: string;
  region: string;
  country: string;
  loc: string;
  org: string;
  postal: string;
  timezone: string;
  client_timezone: string;
  language: string;
}

export type CountDimension = 'total' | 'page' | 'referrer' | 'country' | 'city';

export interface DailyCountsTable {
  day: string;
  dimension: CountDimension;
  value: string;
  views: number;
  visitors: number;
}

export interface DailyVisitorsTable {
  day: string;
  visitor_hash: string;
}

export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

// The operators' console (migration 0004-operators).
export interface OperatorsTable {
  id: string;
  email: string;
  email_key: string;
  password_hash: string;
  /** Encrypted under the data key since migration 0009 (store/secret-box.ts). */
  totp_secret: string;
  /** bigint: PostgreSQL hands it back as a string, SQLite as a number; read with Number(). */
  totp_last_step: number | string | null;
  created_at: IsoTime;
  updated_at: IsoTime;
  /** What the operator may do: 'viewer' | 'sender' | 'owner' (src/shared/admin/roles.ts; migration 0008). */
  // As migration 0008's CHECK spells it; src/shared/admin/roles.ts is the list the app uses (the
  // store imports no feature: the lint's boundary), and the two must agree.
  role: Generated<'viewer' | 'sender' | 'owner'>;
}

export interface OperatorRecoveryCodesTable {
  operator_id: string;
  code_hash: string;
  used_at: IsoTime | null;
}

export interface OperatorChallengesTable {
  token_hash: string;
  operator_id: string;
  created_at: IsoTime;
  expires_at: IsoTime;
  /** Second-factor answers checked so far (migration 0025): five wrong ones end the sign-in. */
  tries: Generated<number>;
}

/** Wrong authenticator codes per operator, from any network (features/operators/code-tries.ts; migration 0029). */
export interface OperatorCodeTriesTable {
  operator_id: string;
  /** Tries taken and not given back: wrong codes, and codes being checked at this moment. */
  tries: number;
  last_try_at: IsoTime;
}

export interface OperatorSessionsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  browser: string;
  created_at: IsoTime;
  last_seen_at: IsoTime;
  idle_expires_at: IsoTime;
  absolute_expires_at: IsoTime;
  fresh_proof_at: IsoTime | null;
}

/** An operator's passkeys: their WebAuthn credentials (migration 0014). */
export interface OperatorPasskeysTable {
  id: string;
  operator_id: string;
  /** base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL hands it back as a string, SQLite as a number; read with Number(). */
  counter: number | string;
  /** JSON array of transports. */
  transports: string;
  device_type: 'singleDevice' | 'multiDevice';
  name: string;
  created_at: IsoTime;
  last_used_at: IsoTime | null;
}

/** A passkey ceremony begun: its challenge, used once, live five minutes at most (migration 0014). */
export interface OperatorPasskeyChallengesTable {
  challenge: string;
  purpose: 'register' | 'sign-in' | 'fresh-proof';
  operator_id: string;
  session_id: string | null;
  pending_hash: string | null;
  created_at: IsoTime;
  expires_at: IsoTime;
}

/**
 * Append-only (triggers refuse UPDATE, DELETE and, on PostgreSQL, TRUNCATE), and a hash chain
 * (migration 0011-audit-chain, src/server/features/audit/audit-chain.ts).
 */
export interface AuditLogTable {
  /** 1, 2, 3, … in the order rows were appended; unique. */
  seq: number;
  /** The hash of the row with seq - 1 (64 zeros for the first). */
  prev_hash: string;
  /** SHA-256 hex of this row's fields and prev_hash (auditRowHash). */
  hash: string;
  id: string;
  at: IsoTime;
  actor: string | null;
  /** 'system': the application acting on its own (a broadcast's automatic pause). */
  via: 'console' | 'command-line' | 'anonymous' | 'system';
  action: string;
  subject: string | null;
  detail: string | null;
}

/** One row (id 1): the last row of the audit chain, so rows cut from its end show as missing. */
export interface AuditChainHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** Sign-ups per UTC day, kept by a trigger on insert and never decremented (erasure keeps totals). */
export interface DailySignupsTable {
  day: string;
  signups: number;
}

/**
 * How many personal records an operator read on a UTC day: past the daily allowance, reading more
 * asks for fresh proof (features/audit/personal-data-allowance.ts; decision 0029, migration 0013).
 */
export interface PersonalDataReadsTable {
  operator_id: string;
  day: string;
  records: Generated<number>;
}

/** Erased people as keyed hashes (migration 0010; store/erasure-ledger.ts): never an address. */
export interface ErasureLedgerTable {
  hash: string;
  key_id: string;
  erased_at: IsoTime;
}

/** 'policy-refusals': a receiver's filter refused it repeatedly (migration 0027; suppression.ts). */
export type SuppressionReason = 'hard-bounce' | 'complaint' | 'soft-bounce-limit' | 'manual' | 'policy-refusals';

/** Addresses never mailed again, as keyed hashes (migration 0015; suppression.ts). */
export interface SuppressionsTable {
  id: string;
  /** The data key whose derived key made address_hash. */
  key_id: string;
  address_hash: string;
  subscriber_id: string | null;
  reason: SuppressionReason;
  source: string;
  detail: string | null;
  created_at: IsoTime;
  lifted_at: IsoTime | null;
  lifted_by: string | null;
}

/** 'policy': refused for policy or content (5.7.x), not for the address (migration 0027). */
export type BounceKind = 'hard' | 'soft' | 'complaint' | 'policy';

/** Every bounce or complaint heard, once per (source, event_id) (migration 0015). */
export interface BounceEventsTable {
  source: string;
  event_id: string;
  kind: BounceKind;
  key_id: string;
  address_hash: string;
  outbox_id: string | null;
  created_at: IsoTime;
}

/** One-time values of signed webhook deliveries, to refuse replays (migration 0016). */
export interface WebhookNoncesTable {
  provider: string;
  nonce: string;
  received_at: IsoTime;
}

/** The presale allowlist: one row per address that proved it by signing (migration 0019). */
export interface AllowlistEntriesTable {
  /** EIP-55. */
  address: string;
  joined_at: IsoTime;
  country: string | null;
  /**
   * The subscriber whose owner confirmed this wallet's link, pressing the button of the email sent
   * for it (migration 0024; one wallet per subscriber); null: none, or erased.
   */
  subscriber_id: Generated<string | null>;
  /** When that link was confirmed (migration 0024). */
  email_linked_at: Generated<IsoTime | null>;
  /**
   * The presale terms' version the entry's signed message accepted (the content file's
   * presaleTerms.version); null: it joined before there were any (migration 0031).
   */
  terms_version: Generated<string | null>;
  /** SHA-256 of the single-use link token the join reply carried; null once spent. */
  link_token_hash: Generated<string | null>;
  link_token_expires_at: Generated<IsoTime | null>;
}

/** A wallet's link to an email, asked for and not yet confirmed: one per wallet (migration 0024). */
export interface AllowlistLinkRequestsTable {
  /** The wallet (allowlist_entries.address). */
  address: string;
  subscriber_id: string;
  /** The email sent for this request; its composer writes `token_hash`. */
  outbox_id: string;
  asked_at: IsoTime;
  expires_at: IsoTime;
  /** SHA-256 of the token in that email; null until the email is made. */
  token_hash: string | null;
}

/** When an address was last sent a link request, whoever asked (migration 0024). */
export interface AllowlistLinkMailTable {
  subscriber_id: string;
  mailed_at: IsoTime;
}

/** Single-use values of the Sign-In with Ethereum messages the server wrote (migration 0019). */
export interface AllowlistNoncesTable {
  nonce: string;
  address: string;
  purpose: string;
  issued_at: IsoTime;
  expires_at: IsoTime;
  used_at: IsoTime | null;
}

/**
 * Joins refused because the server's own lookup placed them in a restricted country: a count per
 * country, never who (migration 0031).
 */
export interface AllowlistCountryRefusalsTable {
  /** ISO 3166-1 alpha-2, as the lookup answered it. */
  country: string;
  refused: number;
}

/** A frozen allowlist snapshot: written once, never updated (migration 0019). */
export interface AllowlistSnapshotsTable {
  id: string;
  /** 0x… Merkle root for the sale contract. */
  root: string;
  entries: number;
  /** StandardMerkleTree's dump, as JSON. */
  tree: string;
  frozen_at: IsoTime;
  requested_by: string;
  approved_by: string | null;
  /** Whether registration stayed open after it ('open') or was closed ('closed'). */
  registration_after: 'open' | 'closed';
  /**
   * The terms version every entry in it accepted, when the freeze left out the entries with an
   * older one or none; null: every entry on the list is in it (migration 0031).
   */
  terms_version: string | null;
}

/** A confirmed person's invite code (migration 0028): one each, 128 random bits, base64url. */
export interface ReferralCodesTable {
  subscriber_id: string;
  code: string;
  /** Keyed hash of the client network the code was made from (lib/client-network.ts); never an address. */
  network_key: string | null;
  created_at: IsoTime;
}

/**
 * Why an invite counted or did not (docs/decisions/0060-referral-invites.md). 'one_domain': the
 * referrer already has as many counted invites at one private mail domain as may count there.
 */
export type ReferralStatus =
  'pending' | 'counted' | 'same_network' | 'same_mailbox' | 'disposable' | 'capped' | 'one_domain';

/** Who came through whose code (migration 0028): one per invited person, the first code they came with. */
export interface ReferralAttributionsTable {
  invited_id: string;
  referrer_id: string;
  /** Keyed hash of the invited sign-up's client network; never an address. */
  network_key: string | null;
  /** The sign-up's time. */
  created_at: IsoTime;
  status: ReferralStatus;
  /** When the invited person confirmed and the status was decided; null while pending. */
  decided_at: IsoTime | null;
  /** The invited address's domain, for the console's clusters. */
  invited_domain: string | null;
  /**
   * Keyed hash of the mailbox the invited address reaches (+tag, case and Gmail's dots off;
   * migration 0030): one mailbox counts once among a referrer's invitees. Null before it is known.
   */
  mailbox_key: string | null;
}

/** Invites counted from one client network in one UTC day (migration 0030): slots, no person. */
export interface ReferralNetworkDaysTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Keyed hash of the client network, as in referral_attributions. */
  network_key: string;
  counted: number;
}

export interface Database {
  personal_data_reads: PersonalDataReadsTable;
  operators: OperatorsTable;
  operator_recovery_codes: OperatorRecoveryCodesTable;
  operator_challenges: OperatorChallengesTable;
  operator_code_tries: OperatorCodeTriesTable;
  operator_sessions: OperatorSessionsTable;
  operator_passkeys: OperatorPasskeysTable;
  operator_passkey_challenges: OperatorPasskeyChallengesTable;
  audit_log: AuditLogTable;
  audit_chain_head: AuditChainHeadTable;
  visits: VisitsTable;
  daily_counts: DailyCountsTable;
  daily_visitors: DailyVisitorsTable;
  daily_signups: DailySignupsTable;
  analytics_salts: AnalyticsSaltsTable;
  subscribers: SubscribersTable;
  consent_wordings: ConsentWordingsTable;
  outbox: OutboxTable;
  broadcasts: BroadcastsTable;
  settings: SettingsTable;
  link_keys: LinkKeysTable;
  abuse_counters: AbuseCountersTable;
  erasure_ledger: ErasureLedgerTable;
  suppressions: SuppressionsTable;
  bounce_events: BounceEventsTable;
  webhook_nonces: WebhookNoncesTable;
  allowlist_entries: AllowlistEntriesTable;
  allowlist_nonces: AllowlistNoncesTable;
  allowlist_link_requests: AllowlistLinkRequestsTable;
  allowlist_link_mail: AllowlistLinkMailTable;
  allowlist_snapshots: AllowlistSnapshotsTable;
  allowlist_country_refusals: AllowlistCountryRefusalsTable;
  referral_codes: ReferralCodesTable;
  referral_attributions: ReferralAttributionsTable;
  referral_network_days: ReferralNetworkDaysTable;
}
