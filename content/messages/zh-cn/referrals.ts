// Invite links, in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { ReferralsMessages } from '../../../src/shared/messages/referrals.ts';

export const referralsMessages: ReferralsMessages = {
  invitedLine: '一位朋友邀请了你。在下方登记，预售开始时我们会通知你。',
  page: {
    title: '你的邀请链接',
    message: '分享此链接。朋友通过它登记并确认邮箱后，就会计入你的邀请。',
  },
  blockHeading: '邀请朋友',
  linkLabel: '你的邀请链接',
  copy: '复制链接',
  copied: '已复制',
  shareLabel: '分享：',
  shareX: 'X（Twitter）',
  shareTelegram: 'Telegram',
  shareEmail: '电子邮件',
  shareText: '我已加入预售名单，一起来吧：',
  shareSubject: '加入预售名单',
  count: ({ count }) => `已登记并确认的朋友：${count}`,
  rewardHeading: '邀请能获得什么',
  pageLink: '你的邀请页面',
  makeLink: {
    title: '你的邀请链接',
    message: '你还没有邀请链接。按下按钮即可生成。',
    button: '生成我的邀请链接',
  },
  brokenLink: {
    title: '此链接无效',
    message: '链接不完整，或其所属的人已不在名单上。请使用我们邮件中的完整链接。',
  },
  notConfirmed: {
    title: '请先确认登记',
    message: '确认邮箱后才会生成你的邀请链接：请使用我们发给你的邮件中的链接。',
  },
};
