export function NotFoundPage() {
  return (
    <section className="prose not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>There is nothing at this address. Diamond hands hold; this link didn’t.</p>
      <p>
        <a className="button button-primary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  );
}
