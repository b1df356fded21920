// The words the public sees, in English: one file per surface, so a page's script carries only
// the words its code uses (a shared file would make one chunk of them all, loaded with the first
// island). The next locales (e.g. `../de/`, `../ar/`) export the same names and satisfy the same
// types. Values are plain strings, or plain functions of named parameters where a number or a list
// goes in: no formatter, no i18n library on the page.
// docs/decisions/0033-route-contracts-fields-and-message-codes.md

/**
 * The sign-up form's own words: its labels and button, and the notices the server answers with
 * (JSON and the no-JavaScript page alike). Its per-field errors are still sentences in the
 * schema (src/shared/signup-schema.ts); they move here as codes next.
 */
export const signupMessages = {
  labels: { name: 'Name', email: 'Email', comment: 'Comment', website: 'Website' },
  optional: '(optional)',
  privacyLink: 'Privacy notice',
  submit: 'Submit',
  sending: 'Sending…',
  success: 'Thank you! Check your inbox for an email from us and click the link in it to confirm your sign-up.',
  invalid: 'Please correct the highlighted fields.',
};

/** The server's answers to a sign-up it could not take (yet): never in the form's script. */
export const signupRefusals = {
  oneMorePress: 'Almost there: please press Submit once more to confirm you are a person.',
  tooMany: ({ seconds }: { seconds: number }): string =>
    `Too many sign-ups from your network. Please try again in ${seconds} seconds.`,
  // Where the form's own words say more than the general ones (http-contract.ts), by status.
  unreadable: 'We could not read that form. Please try again.',
  tooLarge: 'That was more than this form takes (16 KB at most). Please shorten your comment.',
  wrongType: 'Please send the form as a normal web form or as JSON.',
  notSaved: 'Something went wrong on our side and your sign-up was not saved. Please try again in a minute.',
  // The database is out of reach or out of room (store-errors.ts).
  storeDown: ({ seconds }: { seconds: number }): string =>
    `Our database is not answering just now, so your sign-up could not be saved. Please try again in ${seconds} seconds.`,
};

export type SignupMessages = typeof signupMessages;
export type SignupRefusals = typeof signupRefusals;
