import type { CountdownMessages } from '../../../shared/messages/countdown.ts';
import { localeTag } from '../../../shared/locales.ts';
import { clockDigits, countdownAt, countdownSentence, countdownUnits } from '../countdown.ts';
import type { IslandProps } from './island-names.ts';
import { islandWords } from './island-words.ts';

// The presale countdown ticking in the browser. It responds to no one, so it is not React: a few
// lines that take over the text the server rendered (countdown.ts says the same words on both
// sides). It runs at load, so its bytes count in the page's "before interaction" budget.

const reducedMotion = (): boolean => matchMedia('(prefers-reduced-motion: reduce)').matches;

export async function prepare(props: IslandProps['countdown']): Promise<(container: HTMLElement) => Promise<void>> {
  const words = await islandWords.countdown(props.locale);
  return (container) => Promise.resolve(mount(container, props, words));
}

function mount(container: HTMLElement, props: IslandProps['countdown'], words: CountdownMessages): void {
  const tag = localeTag(props.locale);
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
    // The clock changes every second, or with reduced motion every minute (it then shows no
    // seconds; styles.css hides them), so nothing moves on its own every second for someone who
    // asked for stillness. Either way it rounds up to its step, as the sentence does.
    const step = reducedMotion() ? 60_000 : 1000;
    const ms = opensAt - now;
    const left = countdownAt(opensAt, opensAt - Math.ceil(ms / step) * step);
    setText(sentence, countdownSentence(words, opensAt, now));
    for (const [unit, el] of cells) setText(el, clockDigits(tag, left?.[unit] ?? 0));
    if (left === null) {
      if (clock) clock.hidden = true;
      if (open) open.hidden = false;
      return;
    }
    // The display next changes when what is left crosses the next whole step.
    setTimeout(tick, ms % step || step);
  };
  tick();
}
