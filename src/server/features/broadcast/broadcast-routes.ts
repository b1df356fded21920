import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { apiError } from '../../../shared/api-error.ts';
import {
  type Broadcast,
  type BroadcastApprovals,
  type BroadcastDraft,
  versionFor,
} from '../../../shared/admin/broadcast-schema.ts';
import { localeEnglishNames } from '../../../shared/admin/locale-names.ts';
import { pagePaths } from '../../../shared/paths.ts';
import { unsubscribeUrl } from '../signups/index.ts';
import type { BroadcastsTable, Database } from '../../store/schema.ts';
import { audit } from '../audit/index.ts';
import { broadcastRefusal, type BroadcastPolicy } from './broadcast-guard.ts';
import { versionsRefusal } from './broadcast-versions.ts';
import { broadcastEmail, renderBody } from './broadcast-render.ts';
import { approve, revokeApproval } from './broadcast-approval.ts';
import { cancel, pause, resume, startSend } from './broadcast-sending.ts';
import { BROADCAST_KIND, createDraft, draftOf, findBroadcast, listBroadcasts, saveDraft } from './broadcast-store.ts';
import { textNote } from './broadcast-text.ts';
import { progressOf, toBroadcast } from './broadcast-view.ts';
import { operatorOf } from '../operators/index.ts';
import {
  approveBroadcastContract,
  broadcastContract,
  broadcastPreviewContract,
  broadcastsContract,
  cancelBroadcastContract,
  createBroadcastContract,
  pauseBroadcastContract,
  resumeBroadcastContract,
  revokeBroadcastContract,
  saveBroadcastContract,
  sendBroadcastContract,
  testBroadcastContract,
} from '../../../shared/admin/contracts.ts';
import { registerContract, type ContractRequest } from '../../lib/register-contract.ts';
import { notFound } from '../../lib/not-found.ts';

const noSuchBroadcast = 'There is no such broadcast.';
const noVersion = (locale: keyof typeof localeEnglishNames) =>
  `This broadcast has no ${localeEnglishNames[locale]} version, and English is not set to go to the locales without one.`;

export interface BroadcastRouteOptions {
  publicUrl: string;
  siteName: string;
  /** What the guard lets through: the official address, this site, the content file's links. */
  policy: BroadcastPolicy;
  ratePerSec: number;
  /** BROADCAST_APPROVALS (decision 0028). */
  approvals: BroadcastApprovals;
}

/**
 * Compose, preview, test, approve (a second operator, fresh proof), send (fresh proof), follow,
 * pause, resume, cancel a launch broadcast. Decisions 0015 and 0028. Each route's role and need for
 * fresh proof are its contract's (src/shared/admin/contracts.ts).
 */
export function registerBroadcastRoutes(api: FastifyInstance, opts: BroadcastRouteOptions): void {
  const kit = broadcastKit(api, opts);
  registerReadRoutes(kit);
  registerDraftRoutes(kit);
  registerApprovalRoutes(kit);
  registerSendRoutes(kit);
  registerTransitionRoutes(kit);
}

/** What every broadcast route shares: the store, the guard on a text, and the answers it gives. */
interface BroadcastKit {
  api: FastifyInstance;
  opts: BroadcastRouteOptions;
  db: () => Kysely<Database>;
  /** The guard's refusal of a draft, or null. */
  refusalOf: (d: BroadcastDraft) => string | null;
  /** A stored broadcast as the console reads it. */
  reply: (b: BroadcastsTable) => Promise<Broadcast>;
  actorOf: (request: FastifyRequest) => { email: string; via: 'console' };
  /** 404: there is no such broadcast. */
  missing: (res: FastifyReply) => FastifyReply;
  /** The broadcast as it now stands, or 404. */
  current: (res: FastifyReply, id: string) => Promise<Broadcast | FastifyReply>;
  /** 422 with the guard's refusal. */
  refuse: (res: FastifyReply, refusal: string) => FastifyReply;
  conflict: (res: FastifyReply, message: string) => FastifyReply;
}

function broadcastKit(api: FastifyInstance, opts: BroadcastRouteOptions): BroadcastKit {
  const db = () => api.store.db;
  // The one guard (broadcast-guard.ts, decision 0027): addresses however disguised, invisible
  // characters, links and images off the allow-list, in every version; and a version for every
  // locale unless English falls back (broadcast-versions.ts, decision 0048).
  const refusalOf = (d: BroadcastDraft): string | null => versionsRefusal(d, opts.policy);
  const reply = async (b: BroadcastsTable) => {
    const { state, progress } = await progressOf(db(), b, opts.ratePerSec);
    return toBroadcast(b, state, progress, state === 'draft' ? refusalOf(draftOf(b)) : null, opts.approvals);
  };
  const missing = (res: FastifyReply) => notFound(res, noSuchBroadcast);
  return {
    api,
    opts,
    db,
    refusalOf,
    reply,
    actorOf: (request) => ({ email: operatorOf(request).email, via: 'console' as const }),
    missing,
    current: async (res, id) => {
      const b = await findBroadcast(db(), id);
      return b ? reply(b) : missing(res);
    },
    refuse: (res, refusal) => res.code(422).send(apiError('invalid_fields', refusal, { body: refusal })),
    conflict: (res, message) => res.code(409).send(apiError('conflict', message)),
  };
}

/** The list, one broadcast, and its preview in a locale. */
function registerReadRoutes(kit: BroadcastKit): void {
  const { api, db, opts } = kit;
  registerContract(api, broadcastsContract, async () => {
    const rows = await listBroadcasts(db());
    const broadcasts = await Promise.all(
      rows.map(async (b) => {
        const { state } = await progressOf(db(), b, opts.ratePerSec);
        return { id: b.id, subject: b.subject, state, createdAt: b.created_at, sentAt: b.sent_at };
      }),
    );
    return { broadcasts };
  });

  registerContract(api, broadcastContract, async (request, res) => {
    const b = await findBroadcast(db(), request.params.id);
    return b ? kit.reply(b) : kit.missing(res);
  });

  registerContract(api, broadcastPreviewContract, async (request, res) => {
    const b = await findBroadcast(db(), request.params.id);
    if (!b) return kit.missing(res);
    const draft = draftOf(b);
    const locale = request.query.locale ?? 'en';
    const chosen = versionFor(draft, locale);
    if (!chosen)
      return res.code(400).send(apiError('invalid_fields', noVersion(locale), { locale: noVersion(locale) }));
    const email = broadcastEmail({
      siteName: opts.siteName,
      subject: chosen.version.subject,
      body: renderBody(chosen.version.body),
      locale: chosen.locale,
      to: 'preview',
      unsubscribeUrl: `${opts.publicUrl}${pagePaths.unsubscribe}?id=…`,
    });
    return {
      locale,
      versionLocale: chosen.locale,
      subject: email.subject,
      html: email.html,
      text: email.text,
      refusal: kit.refusalOf(draft),
    };
  });
}

/** Writing a draft: create, save, and a test email of one version to the operator. */
function registerDraftRoutes(kit: BroadcastKit): void {
  const { api, db } = kit;
  registerContract(api, createBroadcastContract, async (request) => {
    const id = await createDraft(db(), request.body, operatorOf(request).email, api.clock());
    // The text's fingerprint and its locales, not the text (as for every edit).
    await audit(request, { action: 'broadcast.created', subject: id, detail: textNote(request.body) });
    const b = await findBroadcast(db(), id);
    if (!b) throw new Error('a broadcast just created is missing');
    return kit.reply(b);
  });

  registerContract(api, saveBroadcastContract, async (request, res) => {
    // Anyone who may write may edit another's draft; the row and the audit log say who did.
    const saved = await saveDraft(db(), request.params.id, request.body, kit.actorOf(request), api.clock());
    if (saved.outcome === 'missing') return kit.missing(res);
    if (saved.outcome === 'not-draft')
      return kit.conflict(res, 'This broadcast has been sent or cancelled; it can no longer be changed.');
    return kit.current(res, request.params.id);
  });

  registerContract(api, testBroadcastContract, (request, res) => sendTest(kit, request, res));
}

/** A test email of the version for the asked locale, to the operator who asked, now. */
async function sendTest(kit: BroadcastKit, request: ContractRequest<typeof testBroadcastContract>, res: FastifyReply) {
  const { api, opts } = kit;
  const operator = operatorOf(request);
  const b = await findBroadcast(kit.db(), request.params.id);
  if (!b) return kit.missing(res);
  const locale = request.body.locale ?? 'en';
  const chosen = versionFor(draftOf(b), locale);
  if (!chosen) return kit.refuse(res, noVersion(locale));
  // The version the operator asked to see: the guard on it, as on any version sent.
  const refusal = broadcastRefusal(chosen.version, opts.policy);
  if (refusal) return kit.refuse(res, refusal);
  // Straight to the mail server, not through the outbox: the operator is waiting for it, and
  // a failure is theirs to see now. Its unsubscribe link is a real-looking one that matches
  // no subscriber. The envelope and headers are the real send's (VERP, Feedback-ID, List-Id:
  // Outbox.sendNow), its kind of its own so a provider's feedback loop counts tests apart.
  try {
    await api.outbox.sendNow(
      broadcastEmail({
        siteName: opts.siteName,
        subject: chosen.version.subject,
        body: renderBody(chosen.version.body),
        locale: chosen.locale,
        to: operator.email,
        unsubscribeUrl: unsubscribeUrl(opts.publicUrl, api.keys, 'test-send'),
        test: true,
      }),
      { kind: `${BROADCAST_KIND}-test`, broadcastId: b.id },
    );
  } catch (error) {
    request.log.warn(
      { err: error instanceof Error ? error.message.slice(0, 200) : 'unknown' },
      'broadcast test not sent',
    );
    return res
      .code(503)
      .send(apiError('unavailable', 'The mail server did not take the test email; try again in a minute.'));
  }
  await audit(request, {
    action: 'broadcast.test-sent',
    subject: b.id,
    detail: chosen.locale === locale ? `the ${locale} version` : `for ${locale}: the ${chosen.locale} version`,
  });
  return { sentTo: operator.email, locale, versionLocale: chosen.locale };
}

/** A second operator's approval of the exact text (decision 0028), and taking it back. */
function registerApprovalRoutes(kit: BroadcastKit): void {
  const { api, db } = kit;
  registerContract(api, approveBroadcastContract, async (request, res) => {
    const id = request.params.id;
    const by = { ...kit.actorOf(request), role: operatorOf(request).role };
    const approved = await approve(db(), id, by, request.body.textHash, api.clock());
    switch (approved.outcome) {
      case 'missing':
        return kit.missing(res);
      case 'not-draft':
        return kit.conflict(res, 'Only a draft can be approved; this broadcast has been sent or cancelled.');
      case 'refused':
        return res.code(403).send(apiError('forbidden', approved.refusal));
      case 'already':
        return kit.conflict(res, `It is approved already (by ${approved.approvedBy}).`);
      case 'changed':
        return kit.conflict(
          res,
          'The text changed since you opened it, so it was not approved: read it again, then approve it.',
        );
      case 'approved':
        return kit.current(res, id);
    }
  });

  registerContract(api, revokeBroadcastContract, async (request, res) => {
    const id = request.params.id;
    const revoked = await revokeApproval(db(), id, kit.actorOf(request), api.clock());
    if (revoked.outcome === 'missing') return kit.missing(res);
    if (revoked.outcome === 'not-draft')
      return kit.conflict(
        res,
        'This broadcast has been sent or cancelled; its approval can no longer be revoked (pause or cancel it instead).',
      );
    if (revoked.outcome === 'none') return kit.conflict(res, 'This broadcast has no approval to revoke.');
    return kit.current(res, id);
  });
}

/** Sending: the text is written to the outbox for every confirmed subscriber of its locales. */
function registerSendRoutes(kit: BroadcastKit): void {
  const { api, db, opts } = kit;
  registerContract(api, sendBroadcastContract, async (request, res) => {
    const id = request.params.id;
    // The guard and the approval are checked on the stored text inside the transaction that
    // starts the send (broadcast-sending.ts), never on a copy read before it.
    const started = await startSend(db(), id, kit.actorOf(request), api.clock(), {
      approvals: opts.approvals,
      refusalOf: kit.refusalOf,
      suppressions: api.suppressions,
    });
    switch (started.outcome) {
      case 'missing':
        return kit.missing(res);
      case 'not-draft':
        return kit.conflict(res, 'This broadcast has already been sent (or cancelled); it was not sent again.');
      case 'refused':
        return kit.refuse(res, started.refusal);
      case 'unapproved':
        return kit.conflict(
          res,
          `This broadcast was not sent: ${started.reason}. A second operator (a sender or an owner who neither wrote nor edited it) must approve this text first.`,
        );
      case 'started':
        api.outbox.nudge('broadcast');
        return kit.current(res, id);
    }
  });
}

/** Pause, resume and cancel: one shape each, a state change audited, the broadcast back. */
function registerTransitionRoutes(kit: BroadcastKit): void {
  const { api, db } = kit;
  const transition = (
    contract: typeof pauseBroadcastContract | typeof resumeBroadcastContract | typeof cancelBroadcastContract,
    /** False when the broadcast is not in a state this applies to; else the audit row's detail. */
    change: (id: string, by: string) => Promise<false | { detail: string | null }>,
    action: 'broadcast.paused' | 'broadcast.resumed' | 'broadcast.cancelled',
    refused: string,
  ) =>
    registerContract(api, contract, async (request, res) => {
      const id = request.params.id;
      const changed = await change(id, operatorOf(request).email);
      if (!changed) return (await findBroadcast(db(), id)) ? kit.conflict(res, refused) : kit.missing(res);
      await audit(request, { action, subject: id, detail: changed.detail });
      if (action === 'broadcast.resumed') api.outbox.nudge('broadcast');
      return kit.current(res, id);
    });
  const done = (ok: boolean) => (ok ? { detail: null } : false);
  transition(
    pauseBroadcastContract,
    async (id, by) => done(await pause(db(), id, by, api.clock())),
    'broadcast.paused',
    'Only a broadcast that is sending can be paused.',
  );
  transition(
    resumeBroadcastContract,
    async (id, by) => {
      const r = await resume(db(), id, by, api.clock());
      if (!r.resumed) return false;
      // The reply says so too (automaticPause.overriddenBy).
      return { detail: r.overrode ? `overrode the automatic pause: ${r.overrode}` : null };
    },
    'broadcast.resumed',
    'Only a paused broadcast can be resumed.',
  );
  transition(
    cancelBroadcastContract,
    async (id) => done(await cancel(db(), id, api.clock())),
    'broadcast.cancelled',
    'This broadcast has finished or was cancelled already.',
  );
}
