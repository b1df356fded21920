// What the page's and the console's scripts say when the server cannot be reached or answers
// something they cannot read: words the browser writes itself, since no answer carried any. Named
// constants (as in wallet.ts), so a script carries the words and not their keys.
// docs/decisions/0043-messages-as-codes.md

export const offline = 'We could not reach our server. Check your connection and try again.';
export const unreadable = 'Our server sent an answer we could not read. Please try again in a minute.';
