// What the page's and the console's scripts say when the server cannot be reached or answers
// something they cannot read (content/messages/<locale>/connection.ts): words the browser writes
// itself, since no answer carried any.

export interface ConnectionWords {
  offline: string;
  unreadable: string;
}
