import type { MailMessage } from './mailer.ts';
import type { OutboxRow } from './outbox.ts';
import type { Verp } from './verp.ts';

/**
 * The VERP envelope sender, plus the headers mailbox providers group reports by: Feedback-ID
 * (Gmail's feedback loop: campaign:kind:sender, here broadcast id or "-", the outbox kind and our
 * domain) and, for a broadcast, an RFC 2919 List-Id of its own, so complaints per broadcast can be
 * told apart. Every email the app sends gets them here: a queued row, and a test send
 * (Outbox.sendNow, under an id that names no row).
 */
export function withBounceHeaders(
  message: MailMessage,
  row: Pick<OutboxRow, 'id' | 'kind' | 'broadcast_id'>,
  verp: Verp,
): MailMessage {
  const campaign = row.broadcast_id ? row.broadcast_id.replace(/-/g, '') : '-';
  const headers: Record<string, string> = {
    ...message.headers,
    'Feedback-ID': `${campaign}:${row.kind}:diamond-hand:${verp.domain}`,
  };
  if (row.broadcast_id) headers['List-Id'] = `Broadcast <b${campaign}.${verp.domain}>`;
  // The Message-ID carries the same signed id: a report whose copy lost the envelope still names it.
  return { ...message, headers, envelopeFrom: verp.address(row.id), messageId: verp.messageId(row.id) };
}
