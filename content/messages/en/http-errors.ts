// The words of the one error shape (src/shared/api-error.ts) when no route says more, in English,
// by HTTP status: what any address answers a visitor (src/server/plugins/http-contract.ts) and the
// 404 for an address nobody claimed. Server-only. docs/decisions/0043-messages-as-codes.md
import type { HttpErrorMessages } from '../../../src/shared/messages/http-errors.ts';

export const httpErrorMessages: HttpErrorMessages = {
  400: 'We could not read that request. Please check it and try again.',
  403: 'That is not allowed.',
  404: 'Not found: there is nothing at this address.',
  405: 'That address does not take this kind of request.',
  408: 'That request took too long to arrive. Please check your connection and try again.',
  413: 'That was more than this address takes (16 KB at most). Please send less.',
  415: 'Please send a normal web form or JSON.',
  429: 'Too many requests. Please wait a minute and try again.',
  503: 'We are busy or restarting. Please try again in a few seconds.',
  500: 'Something went wrong on our side. Please try again in a minute.',
  csrf: 'Your security token is missing or out of date. Reload the page and try again.',
  crossSite: 'This form can only be sent from our own site.',
  invalidFields: 'Please correct the fields named below.',
  // The database is out of reach or out of room (store-errors.ts).
  storeDown: ({ seconds }: { seconds: number }): string =>
    `Our database is not answering just now, so this could not be saved. Please try again in ${seconds} seconds.`,
};
