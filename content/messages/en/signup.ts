// The words the public sees, in English: one file per surface, so a page's script carries only
// the words its code uses (a shared file would make one chunk of them all, loaded with the first
// island). The next locales (e.g. `../de/`, `../ar/`) export the same names and satisfy the same
// types. Values are plain strings, or plain functions of named parameters where a number or a list
// goes in: no formatter, no i18n library on the page.
// docs/decisions/0033-route-contracts-fields-and-message-codes.md
import type { SignupAnswers, SignupMessages } from '../../../src/shared/messages/signup.ts';

/** The form's limits (signupLimits in src/shared/signup-schema.ts), which its errors name. */
interface Limits {
  name: number;
  email: number;
  emailLocalPart: number;
  comment: number;
}

/**
 * The sign-up form's own words: its labels and button, and why a field was refused, by the code
 * the schema gives (src/shared/signup-schema.ts). The server and the form pass codes; these words
 * are looked up where they are shown, beside the field (by the form, on the server for the
 * no-JavaScript page and in the browser once it has woken).
 */
export const signupMessages: SignupMessages = {
  labels: { name: 'Name', email: 'Email', comment: 'Comment', website: 'Website' },
  optional: '(optional)',
  // Stored with each sign-up as what the person agreed to: a change needs a new version
  // (consentWording in src/shared/signup-schema.ts).
  consent:
    'By signing up you agree that we email you about Diamond Hand (DH): the presale and project news. Every email has a link to stop them at once; see our privacy notice.',
  privacyLink: 'Privacy notice',
  submit: 'Submit',
  sending: 'Sending…',
  invalid: 'Please correct the highlighted fields.',
  fieldErrors: {
    'name.required': 'Please enter your name.',
    'name.tooLong': ({ name }: Limits): string => `Your name can be at most ${name} characters.`,
    'name.lines': 'Please write your name on one line.',
    'name.control':
      'Your name contains a character we cannot accept (an invisible control character). Please type it again.',
    'name.invisible': 'Your name contains invisible formatting characters. Please type it again without them.',
    'name.url': 'Please enter just your name, without web addresses or links.',
    'email.required': 'Please enter your email address.',
    'email.localTooLong': ({ emailLocalPart }: Limits): string =>
      `The part before the @ can be at most ${emailLocalPart} characters.`,
    'email.localAscii': "The part before the @ can only use the letters a to z, digits and . _ ' + -.",
    'email.tooLong': ({ email }: Limits): string => `An email address can be at most ${email} characters.`,
    'email.invalid': 'Please enter a valid email address, like name@example.com.',
    'comment.notText': 'Your comment must be text.',
    'comment.tooLong': ({ comment }: Limits): string =>
      `Your comment can be at most ${comment.toLocaleString('en')} characters.`,
    'comment.control':
      'Your comment contains a character we cannot accept (an invisible control character). Please remove it.',
    unreadable: 'This field contains a character we cannot read. Please type it again.',
    invalid: 'Please check this field.',
  },
};

/**
 * The server's answers to a sign-up (JSON and the no-JavaScript page alike): never in the form's
 * script, which shows the answer the server wrote.
 */
export const signupAnswers: SignupAnswers = {
  success: 'Thank you! Check your inbox for an email from us and click the link in it to confirm your sign-up.',
  // What is wrong with the message as a whole, by code: only a program (never the form) sends these.
  formErrors: {
    'form.unknownFields': ({ fields }): string => `This form takes only these fields: ${fields}.`,
    'form.shape': ({ required }): string => `Please send at least these fields: ${required}.`,
  },
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
  restrictedCountry: ({ country }: { country: string }): string =>
    `Our server places your connection in ${country}, whose residents may not sign up for this list (see the presale terms). If you live in ${country}, you cannot sign up. If you are not in ${country}, the lookup is wrong: it guesses from your network's address. Please try again from another connection. Nothing you typed was kept.`,
};
