// The one name the page's inline script and the islands' loader share: taps that land after the
// first paint but before the loader has arrived are kept under it (server/features/site/site-build.ts) and
// handed to the loader (client/site/entry-client.ts), which replays them once their island wakes.

/** The window property holding the function that stops the keeping and gives the taps kept. */
export const earlyClicksGlobal = 'dhEarlyClicks';

declare global {
  interface Window {
    [earlyClicksGlobal]?: () => HTMLElement[];
  }
}
