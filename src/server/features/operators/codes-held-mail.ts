import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/escape-html.ts';
import { errorText } from '../../lib/log-safe.ts';
import type { MailMessage } from '../mail/index.ts';

// When an operator's authenticator codes are held (code-tries.ts), the owners are told by email as
// well as by the audit row and the warn line: ten wrong codes came after the right password (or in
// a signed-in session), so someone else knows it. The email names the operator and what to do, and
// carries no secret: no code, no address of the guesser, no link that signs anyone in.

/** The kind the mail server's feedback loop and the bounce headers know these emails by. */
export const CODES_HELD_KIND = 'operator-codes-held';

export function codesHeldEmail(input: {
  to: string;
  operatorEmail: string;
  wrongCodes: number;
  heldMinutes: number;
  /** The console's host (PUBLIC_URL's), so an owner of several sites knows which one. */
  site: string;
}): MailMessage {
  const subject = `${input.site} console: authenticator codes held for ${input.operatorEmail}`;
  const lines = [
    `${input.wrongCodes} wrong authenticator codes were entered for the console operator ${input.operatorEmail} within an hour, from any network.`,
    `Each came after the right password (or in a signed-in session): someone else knows that password.`,
    `Codes from an authenticator app are held for this operator for ${input.heldMinutes} minutes. Passkeys and recovery codes still work, and a recovery code used to sign in meanwhile also confirms exports and sends.`,
    `What to do: ask ${input.operatorEmail} whether it was them. If not, change their password now (npm run operator -- passwd ${input.operatorEmail}), which also ends their sessions.`,
    `The console's audit log has the entry ("Authenticator codes held after many wrong codes").`,
  ];
  return {
    to: input.to,
    subject,
    text: `${lines.join('\n\n')}\n`,
    html: lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n'),
  };
}

/**
 * Mails every owner, each on their own (one failing address stops no other). Not awaited by the
 * answer: the request that started the hold is the guesser's, and the mail server's pace is none
 * of theirs; a failure is a warn line, the audit row stays.
 */
export function mailOwners(
  api: FastifyInstance,
  request: FastifyRequest,
  owners: string[],
  message: (to: string) => MailMessage,
): void {
  for (const to of owners) {
    api.outbox
      .sendNow(message(to), { kind: CODES_HELD_KIND, broadcastId: null })
      .catch((error: unknown) =>
        request.log.warn({ err: errorText(error) }, 'an owner was not mailed that an operator’s codes are held'),
      );
  }
}
