import { countdownAt, countdownSentence, countdownUnits, pad2 } from '../countdown.ts';
import type { IslandProps } from './island-names.ts';

// The presale countdown ticking in the browser. It responds to no one, so it is not React: a few
// lines that take over the text the server rendered (countdown.ts says the same words on both
// sides). It runs at load, so its bytes count in the page's "before interaction" budget.

const reducedMotion = (): boolean => matchMedia('(prefers-reduced-motion: reduce)').matches;

export function mount(container: HTMLElement, props: IslandProps['countdown']): Promise<void> {
  const opensAt = Date.parse(props.opensAt);
  const find = (name: string) => container.querySelector<HTMLElement>(`[data-countdown="${name}"]`);
  const sentence = find('sentence');
  const clock = container.querySelector<HTMLElement>('.countdown-clock');
  const open = container.querySelector<HTMLElement>('.presale-open');
  const cells = countdownUnits.map((unit) => [unit, find(unit)] as const);

  // Writes only what changed: the sentence (a polite live region) changes at most once a
  // minute, so a screen reader is not told every second.
  const setText = (el: HTMLElement | null, text: string) => {
    if (el && el.textContent !== text) el.textContent = text;
  };

  const tick = () => {
    const now = Date.now();
    const left = countdownAt(opensAt, now);
    setText(sentence, countdownSentence(opensAt, now));
    for (const [unit, el] of cells) setText(el, pad2(left?.[unit] ?? 0));
    if (left === null) {
      if (clock) clock.hidden = true;
      if (open) open.hidden = false;
      return;
    }
    // Next change of the display: the next whole second, or with reduced motion the next whole
    // minute (the clock then shows no seconds; styles.css hides them), so nothing moves on its
    // own every second for someone who asked for stillness.
    const step = reducedMotion() ? 60_000 : 1000;
    const ms = opensAt - now;
    setTimeout(tick, ms % step || step);
  };
  tick();
  return Promise.resolve();
}
