// Pure decoration: hidden from assistive tech, animated only with transform (compositor-only, so
// it never causes layout shift), and stopped by the reduced-motion rule in styles.css.
export function Clouds() {
  return (
    <div className="clouds" aria-hidden="true">
      <span className="cloud cloud-1" />
      <span className="cloud cloud-2" />
      <span className="cloud cloud-3" />
      <span className="cloud cloud-4" />
    </div>
  );
}
