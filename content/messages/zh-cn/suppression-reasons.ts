// Why an address is on the suppression list, in Simplified Chinese: a draft, not yet reviewed by a
// native speaker (./meta.ts). Typed by the English file.
import type { SuppressionReasonMessages } from '../../../src/shared/messages/suppression-reasons.ts';

export const suppressionReasonMessages: SuppressionReasonMessages = {
  'hard-bounce': '地址不存在（硬退信）',
  complaint: '被标记为垃圾邮件（投诉）',
  'soft-bounce-limit': '持续退信（7 天内 3 次软退信）',
  manual: '手动添加',
  'policy-refusals': '被收件方的过滤器拒收（14 天或更长时间内 3 封邮件）',
};
