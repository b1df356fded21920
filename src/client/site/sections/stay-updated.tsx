import { apiPaths } from '../../../shared/site-pages.ts';
import { content } from '../content.ts';

export function StayUpdated() {
  return (
    <section className="stay-updated" id="stay-updated" aria-labelledby="stay-updated-title">
      <h2 id="stay-updated-title">{content.stayUpdated.heading}</h2>
      <p>{content.stayUpdated.intro}</p>
      <form className="signup-form" method="post" action={apiPaths.signup}>
        <div className="field">
          <label htmlFor="signup-name">Name</label>
          <input id="signup-name" name="name" type="text" autoComplete="name" required maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="signup-email">Email</label>
          <input
            id="signup-email"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            maxLength={254}
          />
        </div>
        <div className="field">
          <label htmlFor="signup-comment">
            Comment <span className="optional">(optional)</span>
          </label>
          <textarea id="signup-comment" name="comment" rows={5} maxLength={1000} />
        </div>
        <button className="button button-primary" type="submit">
          Submit
        </button>
      </form>
    </section>
  );
}
