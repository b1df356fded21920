/** The place a later change fills (Subscribers, Audience, Broadcast). */
export function ComingView({ title }: { title: string }) {
  return (
    <section aria-labelledby="view-title">
      <h1 id="view-title">{title}</h1>
      <p className="cs-muted">This part of the console is not built yet.</p>
    </section>
  );
}
