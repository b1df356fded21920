// Why an address is on the suppression list, in Arabic: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { SuppressionReasonMessages } from '../../../src/shared/messages/suppression-reasons.ts';

export const suppressionReasonMessages: SuppressionReasonMessages = {
  'hard-bounce': 'العنوان غير موجود (ارتداد دائم)',
  complaint: 'وُضعت عليه علامة رسالة مزعجة (شكوى)',
  'soft-bounce-limit': 'استمر في الارتداد (3 ارتدادات مؤقتة خلال 7 أيام)',
  manual: 'أُضيف يدويًا',
  'policy-refusals': 'رفضه مرشّح الجهة المستقبِلة (3 رسائل على مدى 14 يومًا أو أكثر)',
};
