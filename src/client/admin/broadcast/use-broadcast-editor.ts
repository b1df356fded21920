import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { locales, type Locale } from '../../../shared/locales.ts';
import {
  broadcastDraftSchema,
  translatedLocales,
  type Broadcast,
  type BroadcastList,
  type BroadcastPreview,
  type BroadcastTranslations,
  type BroadcastVersion,
} from '../../../shared/admin/broadcast-schema.ts';
import { roleAllows } from '../../../shared/admin/roles.ts';
import { BACKGROUND_HEADER } from '../../../shared/admin/sign-in-schema.ts';
import { useApiData, useConsole } from '../console/console-context.tsx';
import {
  approveBroadcastContract,
  broadcastContract,
  broadcastPreviewContract,
  broadcastsContract,
  type BroadcastChangeContract,
  createBroadcastContract,
  saveBroadcastContract,
  sendBroadcastContract,
  testBroadcastContract,
} from '../../../shared/admin/contracts.ts';
import { callContract } from '../../lib/call-contract.ts';
import { localeEnglishNames } from '../../../shared/admin/locale-names.ts';

const POLL_MS = 2000;
const live = (b: Broadcast | null) => b?.state === 'sending' || b?.state === 'paused';

/** Every locale's text in the editor: English's is the broadcast's own subject and body. */
export type EditorVersions = Record<Locale, BroadcastVersion>;
type FieldErrors = Partial<Record<Locale, { subject?: string; body?: string }>>;

const blank = (): BroadcastVersion => ({ subject: '', body: '' });
const versionsOf = (b: Broadcast | null): EditorVersions =>
  Object.fromEntries(
    locales.map((l) => [
      l,
      l === 'en' ? (b ? { subject: b.subject, body: b.body } : blank()) : (b?.translations[l] ?? blank()),
    ]),
  ) as EditorVersions;
const sameVersions = (a: EditorVersions, b: EditorVersions) =>
  locales.every((l) => a[l].subject === b[l].subject && a[l].body === b[l].body);

/**
 * The draft the server is sent: English, and each other locale that has any text (one left half
 * written is sent, so the server's schema says what is missing).
 */
export function draftOf(versions: EditorVersions, englishFallback: boolean) {
  const translations: BroadcastTranslations = {};
  for (const l of translatedLocales) {
    const v = versions[l];
    if (v.subject.trim() !== '' || v.body.trim() !== '') translations[l] = v;
  }
  return { subject: versions.en.subject, body: versions.en.body, translations, englishFallback };
}

/**
 * The Broadcast view's state and what an operator does with it: the broadcast shown (a live one
 * first, else the newest draft), the editor's text, polling while it sends or waits for approval,
 * and save, preview, test, send, approve, pause/resume/cancel/revoke. The view only lays it out.
 */
export function useBroadcastEditor() {
  const { withFreshProof, role } = useConsole();
  const writer = roleAllows(role, 'sender');
  const read = useApiData();
  const [broadcast, setBroadcast] = useState<Broadcast | null>(null);
  const [drafts, setDrafts] = useState<BroadcastList['broadcasts']>([]);
  const [versions, setVersions] = useState<EditorVersions>(() => versionsOf(null));
  const [englishFallback, setEnglishFallback] = useState(true);
  /** The version on screen; preview and test send show this locale's subscribers' version. */
  const [locale, setLocale] = useState<Locale>('en');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [preview, setPreview] = useState<BroadcastPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Shows a broadcast, its text in the editor. */
  const show = useCallback((b: Broadcast) => {
    setBroadcast(b);
    setVersions(versionsOf(b));
    setEnglishFallback(b.englishFallback);
  }, []);
  const subject = versions[locale].subject;
  const body = versions[locale].body;
  const setSubject = (value: string) => setVersions((v) => ({ ...v, [locale]: { ...v[locale], subject: value } }));
  const setBody = (value: string) => setVersions((v) => ({ ...v, [locale]: { ...v[locale], body: value } }));

  // A broadcast still going (sent from another tab, or before a reload) is shown at once; else the
  // newest draft (another operator's, waiting for approval, say). The rest are listed to open.
  useEffect(() => {
    void (async () => {
      const list = read(await callContract(broadcastsContract, {})).data;
      const all = list?.broadcasts ?? [];
      setDrafts(all.filter((b) => b.state === 'draft'));
      const first =
        all.find((b) => b.state === 'sending' || b.state === 'paused') ?? all.find((b) => b.state === 'draft');
      if (!first) return;
      const one = read(await callContract(broadcastContract, { params: { id: first.id } })).data;
      if (one) show(one);
    })();
  }, [read, show]);

  async function open(id: string) {
    const { data, error: failed } = read(await callContract(broadcastContract, { params: { id: id } }));
    setError(failed);
    setPreview(null);
    setStatus(null);
    if (data) show(data);
  }

  const dirty =
    broadcast?.state === 'draft' &&
    (!sameVersions(versions, versionsOf(broadcast)) || englishFallback !== broadcast.englishFallback);

  // Polled while the broadcast is sending or paused (its progress), or while a draft is open (an
  // approval, a revocation or another operator's edit shows up; the editor follows the stored
  // text unless it holds changes of its own: `shown` is what the poll compares with).
  const shown = useRef({ broadcast, versions, englishFallback });
  useEffect(() => {
    shown.current = { broadcast, versions, englishFallback };
  }, [broadcast, versions, englishFallback]);
  const watchedId = broadcast && (live(broadcast) || broadcast.state === 'draft') ? broadcast.id : undefined;
  useEffect(() => {
    if (!watchedId) return;
    const timer = setInterval(() => {
      void (async () => {
        // The view polling on its own: marked as background, so it never keeps the session alive.
        const result = await callContract(
          broadcastContract,
          { params: { id: watchedId } },
          { headers: { [BACKGROUND_HEADER]: '1' } },
        );
        const now = shown.current;
        if (!result.ok || now.broadcast?.id !== result.data.id) return;
        const clean =
          sameVersions(now.versions, versionsOf(now.broadcast)) &&
          now.englishFallback === now.broadcast.englishFallback;
        if (clean) show(result.data);
        else setBroadcast(result.data);
      })();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [watchedId, show]);

  /** Saves the draft (creating it the first time); returns it, or null with the errors shown. */
  async function save(): Promise<Broadcast | null> {
    const checked = broadcastDraftSchema.safeParse(draftOf(versions, englishFallback));
    if (!checked.success) {
      const errs: FieldErrors = {};
      for (const issue of checked.error.issues) {
        // ['subject'] is English's; ['translations', 'es', 'body'] another locale's.
        const [first, second, third] = issue.path;
        const where = first === 'translations' ? { l: second, field: third } : { l: 'en', field: first };
        const l = locales.find((x) => x === where.l);
        if (l && (where.field === 'subject' || where.field === 'body')) {
          const mine = (errs[l] ??= {});
          mine[where.field] ??= issue.message;
        }
      }
      setFieldErrors(errs);
      // Show the first locale with a fault; a fault of no one field is said above the form.
      const first = locales.find((l) => errs[l]);
      if (first) setLocale(first);
      else setError(checked.error.issues[0]?.message ?? 'The broadcast could not be saved as it is.');
      return null;
    }
    setFieldErrors({});
    const draftId = broadcast?.state === 'draft' ? broadcast.id : null;
    const result = await (draftId
      ? callContract(saveBroadcastContract, { params: { id: draftId }, body: checked.data })
      : callContract(createBroadcastContract, { body: checked.data }));
    const { data, error: failed } = read(result);
    setError(failed);
    // The editor shows the text as stored (the subject trimmed), so "unsaved changes" means some.
    if (data) show(data);
    return data;
  }

  async function onPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setStatus(null);
    // A viewer may look, not write: their preview is of the text as stored.
    const saved = writer ? await save() : broadcast;
    if (saved) {
      const { data, error: failed } = read(
        await callContract(broadcastPreviewContract, { params: { id: saved.id }, query: { locale } }),
      );
      setError(failed);
      setPreview(data);
    }
    setBusy(false);
  }

  async function testSend() {
    setBusy(true);
    const saved = await save();
    if (saved) {
      const { data, error: failed } = read(
        await callContract(testBroadcastContract, { params: { id: saved.id }, body: { locale } }),
      );
      setError(failed);
      if (data)
        setStatus(
          `A test was sent to ${data.sentTo}. It is the version ${localeEnglishNames[data.locale]} subscribers get${
            data.versionLocale === data.locale ? '' : ` (the ${localeEnglishNames[data.versionLocale]} one)`
          }.`,
        );
    }
    setBusy(false);
  }

  async function sendToAll() {
    setBusy(true);
    const saved = await save();
    if (saved && !saved.refusal) {
      const result = await withFreshProof(() =>
        callContract(sendBroadcastContract, { params: { id: saved.id }, body: {} }),
      );
      if (result.ok) {
        setBroadcast(result.data);
        setPreview(null);
        setStatus(`Sending to ${result.data.progress.recipients} confirmed subscribers.`);
      } else if (result.error.code !== 'fresh_proof_required') setError(read(result).error);
    }
    setBusy(false);
  }

  /** Pause, resume, cancel, revoke; resume asks for a fresh code, as sending does. */
  async function change(contract: BroadcastChangeContract) {
    if (!broadcast) return;
    setBusy(true);
    const result = await withFreshProof(() => callContract(contract, { params: { id: broadcast.id }, body: {} }));
    if (result.ok || result.error.code !== 'fresh_proof_required') {
      const { data, error: failed } = read(result);
      setError(failed);
      if (data) setBroadcast(data);
    }
    setBusy(false);
  }

  /** The approval of the text on screen (as stored: its fingerprint goes with it). */
  async function approve() {
    if (!broadcast) return;
    setBusy(true);
    const { id, textHash } = broadcast;
    const result = await withFreshProof(() =>
      callContract(approveBroadcastContract, { params: { id }, body: { textHash } }),
    );
    if (result.ok) {
      setError(null);
      show(result.data);
      setStatus('Approved: this exact text may now be sent.');
    } else if (result.error.code !== 'fresh_proof_required') setError(read(result).error);
    setBusy(false);
  }

  function startOver() {
    setDrafts([]);
    setBroadcast(null);
    setPreview(null);
    setVersions(versionsOf(null));
    setEnglishFallback(true);
    setLocale('en');
    setStatus(null);
    setError(null);
  }

  const refusal = broadcast?.state === 'draft' ? broadcast.refusal : null;
  const bodyError = fieldErrors[locale]?.body ?? refusal ?? undefined;
  // With two approvals the server refuses a send nobody approved; saving changes would void it.
  // (A text not saved yet shows its approval panel, and BROADCAST_APPROVALS=1's warning, once saved.)
  const awaitingApproval = !broadcast || (broadcast.approvalsRequired === 2 && (!broadcast.approval || Boolean(dirty)));
  const otherDrafts = drafts.filter((d) => d.id !== broadcast?.id);

  return {
    writer,
    broadcast,
    subject,
    setSubject,
    body,
    setBody,
    versions,
    locale,
    setLocale,
    englishFallback,
    setEnglishFallback,
    subjectError: fieldErrors[locale]?.subject,
    fieldErrors,
    preview,
    error,
    status,
    busy,
    dirty: Boolean(dirty),
    refusal,
    bodyError,
    awaitingApproval,
    otherDrafts,
    open,
    onPreview,
    testSend,
    sendToAll,
    change,
    approve,
    startOver,
  };
}
