export function NoticePage({ notice }: { notice: { title: string; message: string } | undefined }) {
  return (
    <section className="prose notice" aria-labelledby="notice-title">
      <h1 id="notice-title">{notice?.title ?? 'Diamond Hand'}</h1>
      <p>{notice?.message}</p>
      <p>
        <a className="button button-primary" href="/">
          Go to the home page
        </a>
      </p>
    </section>
  );
}
