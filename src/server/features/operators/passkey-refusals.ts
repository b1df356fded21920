// A refused passkey answer in words: the library's plain Errors matched to what went wrong, so an
// operator reads what to do and the audit log what happened.

export const noPasskeysHereMessage =
  'Passkeys need the console at a domain name (like console.example.com or localhost), not an IP address: set PUBLIC_URL to it.';

/** Why an answer was refused: a sentence for the operator, and a short note for the audit log. */
export interface PasskeyRefusal {
  message: string;
  detail: string;
}

/** The library throws plain Errors; their messages are matched to say what went wrong in words. */
export function refusalFor(error: unknown, rp: { id: string; origin: string }): PasskeyRefusal {
  const text = error instanceof Error ? error.message : String(error);
  const say = (message: string, detail: string): PasskeyRefusal => ({ message, detail });
  if (/challenge/i.test(text)) {
    return say(
      'This passkey request has expired or was answered already. Please start again.',
      'passkey refused: unknown, expired or used challenge',
    );
  }
  if (/top origin|origin/i.test(text)) {
    return say(
      `The passkey answered for another site, not ${rp.origin}. Please use the console at its own address.`,
      'passkey refused: wrong origin',
    );
  }
  if (/RP ID/i.test(text)) {
    return say(`That passkey belongs to another site, not ${rp.id}.`, 'passkey refused: wrong RP ID');
  }
  if (/counter/i.test(text)) {
    return say(
      'That passkey’s use count went backwards, which happens when a key has been copied. It was not accepted; please remove it and add a new one.',
      'passkey refused: signature counter went backwards',
    );
  }
  if (/verif(y|ied|ication)/i.test(text) && /user/i.test(text)) {
    return say(
      'Your passkey did not confirm it was you (PIN, fingerprint or face). Please try again and confirm on the device.',
      'passkey refused: user not verified',
    );
  }
  if (/present/i.test(text)) {
    return say(
      'Your passkey did not confirm someone was there. Please try again and touch or unlock the device.',
      'passkey refused: user not present',
    );
  }
  return say('The passkey’s answer could not be verified. Please try again.', 'passkey refused: answer did not verify');
}
