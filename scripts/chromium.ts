// The Chromium the browser tests and the page benchmark drive: Debian's (Playwright cannot
// download its own here), with the flags this machine needs. Without the background-networking
// flags Chromium keeps trying hosts the closed network refuses.
export const chromiumPath = process.env.CHROME_PATH || '/usr/bin/chromium';

export const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
