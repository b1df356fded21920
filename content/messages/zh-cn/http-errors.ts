// The one error shape's words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { HttpErrorMessages } from '../../../src/shared/messages/http-errors.ts';

export const httpErrorMessages: HttpErrorMessages = {
  400: '无法读取该请求。请检查后重试。',
  403: '不允许此操作。',
  404: '未找到：此地址没有任何内容。',
  405: '此地址不接受这种类型的请求。',
  408: '请求耗时过长。请检查网络连接后重试。',
  413: '内容超出了此地址的上限（最多 16 KB）。请减少发送的内容。',
  415: '请以普通网页表单或 JSON 格式发送。',
  429: '请求过于频繁。请等待一分钟后重试。',
  503: '服务器繁忙或正在重启。请几秒钟后重试。',
  500: '我们这边出了问题。请过一分钟再试。',
  csrf: '您的安全令牌缺失或已过期。请刷新页面后重试。',
  crossSite: '此表单只能从我们自己的网站提交。',
  invalidFields: '请更正下方标出的字段。',
  storeDown: ({ seconds }) => `我们的数据库暂时没有响应，因此未能保存。请在 ${seconds} 秒后重试。`,
};
