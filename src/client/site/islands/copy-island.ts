import type { IslandProps } from './island-names.ts';

// The invite link's copy button: a few lines of plain script (no React). Without script the
// button is hidden (site-build.ts's noscript style) and the link is there to select by hand.

export function prepare(props: IslandProps['copy']): Promise<(container: HTMLElement) => Promise<void>> {
  return Promise.resolve((container) => Promise.resolve(mount(container, props)));
}

function mount(container: HTMLElement, props: IslandProps['copy']): void {
  const input = container.querySelector<HTMLInputElement>('[data-invite-link]');
  const button = container.querySelector<HTMLButtonElement>('[data-invite-copy]');
  if (!input || !button) return;
  button.addEventListener('click', () => {
    input.select();
    const done = () => {
      button.textContent = props.copied;
    };
    // The clipboard API needs a secure context; elsewhere the selected text is for the person to copy.
    if (navigator.clipboard) void navigator.clipboard.writeText(input.value).then(done, () => undefined);
  });
}
