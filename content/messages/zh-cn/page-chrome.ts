// The pages' fixed words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { PageChromeMessages } from '../../../src/shared/messages/page-chrome.ts';

export const pageChromeMessages: PageChromeMessages = {
  privacyLink: '隐私声明',
  copyright: ({ year, site }) => `© ${year} ${site}`,
  opensInNewTab: '（在新标签页中打开）',
  heroLine: ({ site, network }) => `${site} · ${network} 上的 Meme 币`,
  comingSoon: '即将推出',
  contractAddress: '官方合约地址：',
  faqTitle: '常见问题',
  faqContractAddress: ({ address }) => ['官方合约地址为 ', { code: address }, '。发送任何资产前，请先在这里核对。'],
  languages: '语言',
  offer: '以简体中文浏览本页',
  offerDismiss: '关闭',
  draftTranslation: '本译文为草稿，尚未经母语人士审校。如有疑问，以英文版声明为准：',
  onNetwork: ({ network }) => `基于 ${network}`,
  homeLink: '前往首页',
  notFound: {
    title: '页面未找到',
    message: '此地址没有任何内容。钻石手从不放手，这个链接却没撑住。',
    description: '此地址没有任何内容。',
  },
  titled: ({ title, site }) => `${title} · ${site}`,
  privacyDescription: ({ site }) => `${site} 网站收集哪些信息、为何收集，以及如何要求删除。`,
  terms: {
    link: '预售条款',
    description: ({ site }: { site: string }): string => `${site} 预售白名单的条款，以及谁可以加入。`,
    version: ({ version }: { version: string }): string => `版本 ${version}。加入白名单即接受此版本。`,
    excludedHeading: '谁不能加入',
    excluded: ({ countries }: { countries: string }): string => `${countries}的居民不能加入白名单。`,
    noneExcluded: '没有排除任何国家，但你只能在参与合法的地方加入。',
    draft: '条款以英文显示：其中文译文是草稿，尚未经母语人士审校，以英文条款为准。',
  },
};
