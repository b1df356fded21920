// The wallet button's words, in English: the wallet island's script carries exactly these. Named
// constants rather than an object, so the island's script carries the words and not their keys
// (the component reads them as `words.connect` from `import * as words`).
// docs/decisions/0043-messages-as-codes.md

export const connect = 'Connect Wallet';
export const soon = 'Coming Soon';
// Said instead of the flipped face, which is hidden from screen readers.
export const soonDescription = 'Coming soon: wallet connect is not open yet.';
export const soonAnnounced = 'Connect Wallet is coming soon.';
