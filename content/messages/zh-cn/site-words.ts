// The content file's (content/site-content.ts) words in Simplified Chinese: a draft by the team, not yet reviewed by a
// native speaker (./meta.ts says the same for the message files).
import type { ContentWords } from '../../../src/shared/content-schema.ts';

export const siteWords: ContentWords = {
  description: 'Diamond Hand (DH) 是以太坊上的社区模因币，属于从不恐慌抛售的持有者。预售即将开始。',
  heroTagline: '拥抱混乱，坚守阵线——Diamond Hand 属于真正的 HODLer！',
  bannerHeadline: '准备好迎接最火爆的加密预售：',
  stayUpdated: {
    heading: '获取最新消息',
    intro: '加入我们的邮件列表，抢先获得专属福利和奖励……',
  },
  closingLine: 'Diamond Hand 属于真正的 HODLer',
  referrals: {
    reward: '确认邀请最多的前 100 人将获得有保证的白名单名额，由我们的团队核实后授予。邀请不会带来代币或金钱。',
  },
  riskNotice: '加密资产波动剧烈。本网站的任何内容均不构成投资建议。',
  faq: [
    {
      question: '什么是 Diamond Hand (DH)？',
      answer: '一个社区模因币，属于不会恐慌抛售的持有者——加密世界的“钻石手”。',
    },
    { question: 'DH 在哪条链上？', answer: '以太坊。' },
    {
      question: '预售什么时候开始？',
      answer: '很快。关注我们的 Telegram 和 Twitter 频道，或加入下方的邮件列表，预售一开始您就会知道。',
    },
    {
      question: '智能合约地址是什么？',
      answer: '即将公布，只会在本网站和我们的官方频道发布。切勿相信私信发给您的任何地址。',
    },
    {
      question: 'DH 有什么不同？',
      answer: '在波动中坚定持有，以及一个长期信仰者的社区。',
    },
  ],
};
