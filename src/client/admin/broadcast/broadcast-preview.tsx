import type { BroadcastPreview } from '../../../shared/admin/broadcast-schema.ts';
import { localeEnglishNames } from '../../../shared/admin/locale-names.ts';

/** The broadcast as the server renders it, HTML and text, before anyone sends it. */
export function PreviewPanel({ preview }: { preview: BroadcastPreview }) {
  return (
    <div className="cs-preview" aria-label="Preview">
      <h2>Preview: {preview.subject}</h2>
      <p className="cs-muted">
        What {localeEnglishNames[preview.locale]} subscribers get
        {preview.versionLocale === preview.locale ? '' : `: the ${localeEnglishNames[preview.versionLocale]} version`}.
      </p>
      <h3>As HTML</h3>
      {/* No scripts, no same origin: the preview can do nothing but show itself. */}
      <iframe title="HTML preview" sandbox="" srcDoc={preview.html} className="cs-preview-frame" />
      <h3>As text</h3>
      <pre className="cs-preview-text" data-testid="text-preview">
        {preview.text}
      </pre>
    </div>
  );
}
