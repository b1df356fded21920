import { signupMessages } from '../../../../content/messages/en/signup.ts';
import { signupFields, type SignupField } from '../../../shared/signup-schema.ts';

// What a person typed into the sign-up form, as their record, their export and the CSV carry it.
// Read from the schema's field list (src/shared/signup-schema.ts), never listed here by hand: a
// field the form gains is stored, so it must come back in everything that shows or hands out what
// is held about the person. A person's export without it would leave out personal data we hold.

/** A field of the sign-up form: its column (named as the field) and its label in English, the console's language. */
export interface GivenField {
  name: SignupField;
  label: string;
}

/** Every field of the sign-up form, in the form's order. */
export const givenFields: readonly GivenField[] = signupFields.map((name) => ({
  name,
  label: signupMessages.labels[name],
}));
