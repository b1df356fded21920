// The pages our emails' links open, in Simplified Chinese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { LinkPageMessages } from '../../../src/shared/messages/link-pages.ts';

export const linkPageMessages: LinkPageMessages = {
  brokenLink: {
    title: '此链接无效',
    message: '链接不完整。请使用我们邮件中的完整链接。',
  },
  usedLink: {
    title: '此链接无效',
    message: '链接不完整或已被使用。请在首页重新订阅，以获取新的链接。',
  },
  expired: {
    title: '此链接已过期',
    message: '确认链接的有效期为 7 天。请在首页重新订阅，我们会给您发送新的链接。',
  },
  alreadyConfirmed: {
    title: '已确认',
    message: '此电子邮箱地址此前已确认。您已在订阅名单中。',
  },
  storeDown: ({ seconds }) => ({
    title: '请稍后重试',
    message: `我们的数据库暂时没有响应，因此未做任何更改。您的链接仍然有效：请在 ${seconds} 秒后再次打开。`,
  }),
  confirmPending: {
    title: '确认订阅',
    message: '点击按钮，确认您希望在此邮箱接收有关预售的邮件。如果您没有订阅过，请关闭此页面，不会有任何影响。',
    button: '确认订阅',
  },
  confirmed: {
    title: '订阅成功',
    message: '您的电子邮箱地址已确认。预售开启时，我们会第一时间通知您。',
  },
  unsubscribeBroken: {
    title: '此链接无效',
    message: '退订链接不完整。请使用我们邮件中的完整链接。',
  },
  unsubscribePending: {
    title: '退订我们的邮件？',
    message: '点击按钮后，此地址将不再收到我们的任何邮件。您可以随时重新订阅。',
    button: '退订',
  },
  unsubscribed: {
    title: '您已退订',
    message: '我们不会再给您发送邮件。如果您改变主意，可以在首页重新订阅。',
  },
  oneClickInvalid: '此退订链接无效。',
  oneClickDone: '已退订。我们不会再给您发送邮件。',
};
