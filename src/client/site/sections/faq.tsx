import mascotSvg from '../assets/mascot.svg?raw';
import { usePage } from '../page-context.tsx';
import { Rich } from '../rich-text.tsx';
import { InlineSvg } from './inline-svg.tsx';

// A native disclosure per question (<details>/<summary>): the browser opens and closes it on
// click, Enter and Space, tells assistive technology whether it is expanded, and does all of it
// with JavaScript off, so the FAQ ships no code at all. The first question starts open.
// https://html.spec.whatwg.org/multipage/interactive-elements.html#the-details-element
export function Faq() {
  const { content, words: all } = usePage();
  const words = all.pageChrome;
  return (
    <section className="faq" id="faq" aria-labelledby="faq-title">
      <h2 id="faq-title">{words.faqTitle}</h2>
      <div className="faq-layout">
        <InlineSvg className="mascot" svg={mascotSvg} />
        <div className="accordion">
          {content.faq.map((item, i) => (
            <details className="accordion-item" key={item.question} open={i === 0}>
              <summary id={`faq-q-${i}`}>
                <span>{item.question}</span>
                <span className="accordion-icon" aria-hidden="true" />
              </summary>
              <div id={`faq-a-${i}`} className="accordion-panel" role="region" aria-labelledby={`faq-q-${i}`}>
                {item.showsContractAddress && content.contractAddress ? (
                  <p>
                    <Rich
                      text={words.faqContractAddress({ address: content.contractAddress })}
                      codeClassName="contract-address"
                    />
                  </p>
                ) : null}
                <p>{item.answer}</p>
              </div>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
