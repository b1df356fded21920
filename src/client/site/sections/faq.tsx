import { useState } from 'react';
import mascotUrl from '../assets/mascot.svg';
import { content } from '../content.ts';

// WAI-ARIA accordion (https://www.w3.org/WAI/ARIA/apg/patterns/accordion/): native buttons give
// click, Enter and Space for free. With JavaScript off, a <noscript> style in the document shows
// every panel, so all answers stay readable.
export function Faq() {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set([0]));
  const toggle = (i: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(i)) next.delete(i);
      else next.add(i);
      return next;
    });

  return (
    <section className="faq" id="faq" aria-labelledby="faq-title">
      <h2 id="faq-title">FAQS</h2>
      <div className="faq-layout">
        <img className="mascot" src={mascotUrl} width="320" height="360" alt="" loading="lazy" decoding="async" />
        <div className="accordion">
          {content.faq.map((item, i) => {
            const expanded = open.has(i);
            return (
              <div className="accordion-item" key={item.question}>
                <h3>
                  <button
                    type="button"
                    id={`faq-q-${i}`}
                    aria-expanded={expanded}
                    aria-controls={`faq-a-${i}`}
                    onClick={() => toggle(i)}
                  >
                    <span>{item.question}</span>
                    <span className="accordion-icon" aria-hidden="true" />
                  </button>
                </h3>
                <div
                  id={`faq-a-${i}`}
                  className="accordion-panel"
                  role="region"
                  aria-labelledby={`faq-q-${i}`}
                  hidden={!expanded}
                >
                  <p>{item.answer}</p>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
