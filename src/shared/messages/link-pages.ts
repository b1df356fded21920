// The pages the links in our emails open (confirm, unsubscribe) and what pressing their button
// says, by code (content/messages/<locale>/link-pages.ts): src/server/features/signups/link-routes.ts
// picks the code.

export interface LinkNotice {
  title: string;
  message: string;
}
export interface LinkQuestion extends LinkNotice {
  button: string;
}

export interface LinkPageMessages {
  brokenLink: LinkNotice;
  usedLink: LinkNotice;
  expired: LinkNotice;
  alreadyConfirmed: LinkNotice;
  storeDown: (wait: { seconds: number }) => LinkNotice;
  confirmPending: LinkQuestion;
  confirmed: LinkNotice;
  unsubscribeBroken: LinkNotice;
  unsubscribePending: LinkQuestion;
  unsubscribed: LinkNotice;
  /** The answers to a mail provider's one-click POST (RFC 8058), which asks for no page. */
  oneClickInvalid: string;
  oneClickDone: string;
}
