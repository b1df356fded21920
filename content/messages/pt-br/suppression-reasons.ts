// Why an address is on the suppression list, in Brazilian Portuguese: a draft, not yet reviewed by
// a native speaker (./meta.ts). Typed by the English file.
import type { SuppressionReasonMessages } from '../../../src/shared/messages/suppression-reasons.ts';

export const suppressionReasonMessages: SuppressionReasonMessages = {
  'hard-bounce': 'O endereço não existe (devolução permanente)',
  complaint: 'Marcado como spam (reclamação)',
  'soft-bounce-limit': 'Continuou voltando (3 devoluções temporárias em 7 dias)',
  manual: 'Adicionado manualmente',
  'policy-refusals': 'Recusado pelo filtro do destinatário (3 e-mails ao longo de 14 dias ou mais)',
};
