import { revokeBroadcastContract } from '../../../shared/admin/contracts.ts';
import { Notice } from '../console/field.tsx';
import { BroadcastApproval } from './broadcast-approval.tsx';
import { BroadcastComposer } from './broadcast-composer.tsx';
import { OtherDrafts } from './broadcast-drafts.tsx';
import { PreviewPanel } from './broadcast-preview.tsx';
import { BroadcastProgressView } from './broadcast-progress.tsx';
import { useBroadcastEditor } from './use-broadcast-editor.ts';

/**
 * The launch broadcast: write a subject and a Markdown body, preview it (HTML and text), send a
 * test to yourself; a second operator approves the text (fresh code); then send it to every
 * confirmed subscriber (fresh code) and follow it. Whether it may go out is decided by the server
 * (the address guard, the approval); its sentences show here. Viewers see, and may only pause.
 * The state and the actions are `useBroadcastEditor`'s; this lays out its parts.
 */
export function BroadcastView() {
  const editor = useBroadcastEditor();
  const { broadcast, busy } = editor;

  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">Broadcast</h1>
      <Notice kind="error">{editor.error}</Notice>
      <Notice kind="info">{editor.status}</Notice>
      {broadcast && broadcast.state !== 'draft' ? (
        <BroadcastProgressView
          broadcast={broadcast}
          onChange={(contract) => void editor.change(contract)}
          onNew={editor.startOver}
        />
      ) : (
        <>
          <BroadcastComposer
            writer={editor.writer}
            busy={busy}
            subject={editor.subject}
            onSubject={editor.setSubject}
            subjectError={editor.subjectError}
            body={editor.body}
            onBody={editor.setBody}
            bodyError={editor.bodyError}
            versions={editor.versions}
            locale={editor.locale}
            onLocale={editor.setLocale}
            englishFallback={editor.englishFallback}
            onEnglishFallback={editor.setEnglishFallback}
            hasBroadcast={Boolean(broadcast)}
            sendRefused={Boolean(editor.refusal) || editor.awaitingApproval}
            onPreview={(e) => void editor.onPreview(e)}
            onTestSend={() => void editor.testSend()}
            onSendToAll={() => void editor.sendToAll()}
            onStartOver={editor.startOver}
          />
          {broadcast ? (
            <BroadcastApproval
              broadcast={broadcast}
              dirty={editor.dirty}
              busy={busy}
              onApprove={() => void editor.approve()}
              onRevoke={() => void editor.change(revokeBroadcastContract)}
            />
          ) : null}
          <OtherDrafts drafts={editor.otherDrafts} busy={busy} onOpen={(id) => void editor.open(id)} />
          {editor.preview ? <PreviewPanel preview={editor.preview} /> : null}
        </>
      )}
    </section>
  );
}
