// Why an address is on the suppression list, in Spanish: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { SuppressionReasonMessages } from '../../../src/shared/messages/suppression-reasons.ts';

export const suppressionReasonMessages: SuppressionReasonMessages = {
  'hard-bounce': 'La dirección no existe (rebote permanente)',
  complaint: 'Marcado como spam (queja)',
  'soft-bounce-limit': 'Siguió rebotando (3 rebotes temporales en 7 días)',
  manual: 'Añadida a mano',
  'policy-refusals': 'Rechazado por el filtro del destinatario (3 correos a lo largo de 14 días o más)',
};
