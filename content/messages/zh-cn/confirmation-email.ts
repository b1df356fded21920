// The confirmation email in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { ConfirmationEmailMessages } from '../../../src/shared/messages/emails.ts';

export const confirmationEmailMessages: ConfirmationEmailMessages = {
  subject: ({ site }) => `请确认订阅 ${site}`,
  hello: '您好：',
  thanks: ({ site }) => `感谢您加入 ${site} 的邮件列表。请确认您的电子邮箱地址：`,
  openAndPress: '打开此链接，然后点击页面上的按钮：',
  button: '确认订阅',
  pasteLink: '或将此链接复制到浏览器中打开：',
  validity: '此链接仅可使用一次，有效期为 7 天。如果您没有订阅过，请忽略此邮件，我们不会再联系您。',
  stop: ({ name }) => `退订 ${name} 的所有邮件`,
};
