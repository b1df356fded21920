// The sign-up form's codes and the shape of its words (content/messages/<locale>/signup.ts). The
// schema's checks carry codes, never words (src/shared/signup-schema.ts); the words are looked up
// where they are shown. docs/decisions/0033-route-contracts-fields-and-message-codes.md

/** Why a field was refused. A code added here does not compile until every locale words it. */
export const signupFieldCodes = [
  'name.required',
  'name.tooLong',
  'name.lines',
  'name.control',
  'name.invisible',
  'name.url',
  'email.required',
  'email.localTooLong',
  'email.localAscii',
  'email.tooLong',
  'email.invalid',
  'comment.notText',
  'comment.tooLong',
  'comment.control',
  'unreadable',
  'invalid',
] as const;
export type SignupFieldCode = (typeof signupFieldCodes)[number];

/**
 * The form's fields. The schema (src/shared/signup-schema.ts) is where a field is defined; this
 * list is checked against it there (a field in one and not the other does not compile), so the
 * words' types can name the fields without importing zod.
 */
export type SignupFieldName = 'name' | 'email' | 'comment';

/** What is wrong with a sign-up message as a whole (only a program sends these; the form cannot). */
export type SignupFormCode = 'form.unknownFields' | 'form.shape';

/** The codes whose words name a limit, so take the limits. */
type LimitCode = 'name.tooLong' | 'email.localTooLong' | 'email.tooLong' | 'comment.tooLong';

/** The form's limits (signupLimits in src/shared/signup-schema.ts), which its errors name. */
export interface SignupLimits {
  name: number;
  email: number;
  emailLocalPart: number;
  comment: number;
}

/** The sign-up form's own words: its labels and button, and why a field was refused, by code. */
export interface SignupMessages {
  /** One per field of the form (signupFields), and the honeypot's. */
  labels: Record<SignupFieldName | 'website', string>;
  optional: string;
  /** Stored with each sign-up as what the person agreed to: a change needs a new consentVersion. */
  consent: string;
  privacyLink: string;
  submit: string;
  sending: string;
  invalid: string;
  fieldErrors: Record<Exclude<SignupFieldCode, LimitCode>, string> &
    Record<LimitCode, (limits: SignupLimits) => string>;
}

/** The server's answers to a sign-up (JSON and the no-JavaScript page alike). */
export interface SignupAnswers {
  success: string;
  /** `fields`: every field's label as a list in this language; `required`: the required ones. */
  formErrors: Record<SignupFormCode, (fields: { fields: string; required: string }) => string>;
  oneMorePress: string;
  tooMany: (wait: { seconds: number }) => string;
  unreadable: string;
  tooLarge: string;
  wrongType: string;
  notSaved: string;
  storeDown: (wait: { seconds: number }) => string;
  /**
   * A sign-up the server's own lookup places in a restricted country, when the team restricts the
   * email list too (the content file's presaleTerms.emailList): why, what to do, and that the lookup
   * can be wrong (`country`: its name in this language).
   */
  restrictedCountry: (p: { country: string }) => string;
}
