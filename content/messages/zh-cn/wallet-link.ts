// 将钱包绑定到邮箱, in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { WalletLinkMessages } from '../../../src/shared/messages/emails.ts';

export const walletLinkMessages: WalletLinkMessages = {
  email: {
    subject: ({ site, wallet }) => `${site}：是否将钱包 ${wallet} 绑定到此邮箱？`,
    hello: '您好：',
    asked: ({ site }) => `有人请求在 ${site} 预售白名单上将以下钱包绑定到此电子邮箱地址：`,
    check: '请将完整地址与您的钱包逐个字符核对：他人可以生成开头和结尾都与您的地址相同的钱包。',
    meaning:
      '绑定后，团队会知道此邮箱属于该钱包的持有人，以便我们通过此邮箱就该钱包在白名单上的位置与您联系。一个邮箱最多绑定一个钱包：绑定此钱包将替换之前绑定到此邮箱的钱包。绑定不会转移任何资金，也不会让任何人获得您钱包的访问权限。',
    openAndPress: '如果是您本人操作，请打开此链接，然后点击页面上的按钮：',
    button: '查看与此钱包的绑定',
    pasteLink: '或将此链接复制到浏览器中打开：',
    validity:
      '此链接仅可使用一次，有效期为 7 天。如果不是您本人操作，请忽略此邮件：除非点击该页面上的按钮，否则不会绑定任何内容。',
    stop: ({ name }) => `退订 ${name} 的所有邮件`,
  },
  page: {
    pending: {
      title: '将此钱包绑定到您的邮箱？',
      message:
        '请将下方的完整地址与您的钱包逐个字符核对：他人可以生成开头和结尾都与您的地址相同的钱包。点击按钮，即可在预售白名单上将此钱包绑定到此电子邮箱地址：团队会知道两者属于同一个人。之前绑定到此邮箱的钱包将被替换。如果这不是您的请求，请关闭此页面：不会绑定任何内容。',
      button: '绑定此钱包',
    },
    linked: {
      title: '钱包已绑定',
      message: '下方的钱包现已绑定到此电子邮箱地址。您可以关闭此页面。',
    },
    expired: {
      title: '此链接已过期',
      message: '钱包绑定链接的有效期为 7 天。请使用您的钱包在白名单页面重新申请，我们会发送新的链接。',
    },
    usedLink: {
      title: '此链接无效',
      message: '此链接不完整、已被使用，或已被同一钱包的较新请求取代。如需绑定钱包，请使用该钱包在白名单页面申请。',
    },
  },
};
