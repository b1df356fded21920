import type { PresaleProps } from '../../../shared/site-pages.ts';
import { localeInfo } from '../../../../content/messages/locale-info.ts';
import { clockDigits, countdownAt, countdownSentence, countdownUnits } from '../countdown.ts';
import { Island } from '../islands/island.tsx';
import { usePage } from '../page-context.tsx';

// The sentence is the island's own code and words (countdown.ts), so the server says exactly what
// the ticking island will; the clock's units and the link are this locale's (`words`).
/**
 * The countdown as the server renders it, at the moment it renders (`renderedAt`): a sentence to
 * the minute that reads without JavaScript ("Presale opens in 12 days, 3 hours and 4 minutes"),
 * a clock face with seconds for the ticking island (hidden with JavaScript off, where it could
 * only stand still), and the link for when it is open. Both states are in the HTML so the island
 * only flips `hidden` at zero; the slot keeps one height, so nothing below moves when it does.
 */
export function PresaleCountdown({ presale }: { presale: PresaleProps }) {
  const { words, locale } = usePage();
  const labels = words.countdownLabels;
  const tag = localeInfo[locale].tag;
  const opensAt = Date.parse(presale.opensAt);
  const left = countdownAt(opensAt, presale.renderedAt);
  const open = left === null;
  return (
    <Island name="countdown" props={{ opensAt: presale.opensAt, locale }}>
      {/* Polite: the island changes this sentence at most once a minute, so that is how often a
          screen reader hears it. The ticking clock below is for eyes only. */}
      <p className="banner-status" aria-live="polite" data-countdown="sentence">
        {countdownSentence(words.countdown, opensAt, presale.renderedAt)}
      </p>
      <div className="presale-slot">
        <p className="countdown-clock" aria-hidden="true" hidden={open}>
          {countdownUnits.map((unit) => (
            <span key={unit} className={`countdown-cell countdown-${unit}`}>
              <span className="countdown-value" data-countdown={unit}>
                {clockDigits(tag, left?.[unit] ?? 0)}
              </span>
              <span className="countdown-unit">{labels.units[unit]}</span>
            </span>
          ))}
        </p>
        <p className="presale-open" hidden={!open}>
          <a className="button button-primary" href={presale.url}>
            {labels.join}
          </a>
        </p>
      </div>
    </Island>
  );
}
