// The allowlist's words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file. "白名单", the word Chinese crypto readers know.
import type { RichText } from '../../../src/shared/messages/rich-text.ts';
import type { WalletMessages, WalletPageWords, WalletRefusals } from '../../../src/shared/messages/allowlist.ts';
import { walletRefusals as english } from '../en/allowlist.ts';

export const walletPageWords: WalletPageWords = {
  headerJoin: '加入白名单',
  headerClosed: '白名单已关闭',
  heading: '预售白名单',
  intro: '签署一条简短的消息，证明您拥有某个钱包，您的地址就会进入预售名单。完全免费。',
  closed: '白名单暂时关闭。请关注我们的官方渠道，获取下一轮开放的消息。',
  connect: '连接钱包',
  never:
    '本页面只会请求您的钱包签署一条 Sign-In with Ethereum 消息。它从不请求交易、代币授权或 permit 签名，也无法动用您的资金。',
  needs: '加入白名单需要启用 JavaScript 并拥有一个钱包：浏览器扩展，或钱包 App 内置的浏览器。',
  emailOffer: '预售开启时通知我（选填）：我们会先发送一封确认链接邮件，您点击链接后，您的邮箱才会生效。',
  emailSubmit: '预售开启时通知我',
  whoMayJoin: ({ countries, terms }: { countries: string | null; terms: string }): RichText => [
    countries === null ? '' : `${countries}的居民不能加入。`,
    '加入即表示接受',
    { link: '预售条款', href: terms },
    countries === null
      ? '，这写在你签署的消息中（按 Sign-In with Ethereum 标准的要求，该消息为英文）。'
      : '，你签署的消息会声明你不是这些国家的居民（按 Sign-In with Ethereum 标准的要求，该消息为英文）。',
  ],
};

export const walletMessages: WalletMessages = {
  connect: '连接钱包',
  looking: '正在查找此浏览器中的钱包…',
  choose: '请选择您的钱包：',
  noWallet: '此浏览器中未找到钱包。请安装钱包扩展，或在钱包 App 内置的浏览器中打开此页面：',
  openIn: ({ wallet }) => `在 ${wallet} 中打开`,
  connecting: ({ wallet }) => `正在向 ${wallet} 请求您的地址…`,
  switching: ({ chainId }) => `正在请求您的钱包切换到预售所在的网络（链 ID ${chainId}）…`,
  wrongChain: ({ chainId, button }) =>
    `您的钱包当前处于其他网络。请点击“${button}”切换到链 ID ${chainId}（或在钱包中切换）。`,
  checking: '正在查询白名单…',
  join: '签名加入白名单',
  leave: '签名退出白名单',
  signing: '请在钱包中签署消息。签名免费，不会转移任何资产。',
  joined: ({ address, since }) => `${address} 自 ${since} 起已在白名单中。`,
  notJoined: ({ address }) => `${address} 尚未加入白名单。`,
  left: ({ address }) => `${address} 已退出白名单。`,
  declined: '您在钱包中拒绝了签名。没有签署任何内容，也没有任何更改。',
  walletError: '您的钱包没有按预期响应。请重试。',
  accountChanged: ({ address }) => `您的钱包现在使用的是 ${address}。点击按钮即可使用该地址继续。`,
};

export const walletRefusals: WalletRefusals = {
  // Stays English: EIP-4361 allows only ASCII in a statement, and the server checks the signed
  // message against English's words.
  statement: english.statement,
  restrictedCountry: ({ country }: { country: string }): string =>
    `我们的服务器判断你的连接位于${country}，该国居民不能加入此白名单（见预售条款）。如果你居住在${country}，则不能加入。如果你不在${country}，说明判断有误：它是根据你网络的地址推测的，在你旅行或你的网络服务商经由其他国家转发流量时可能出错。请换一个网络连接后再试。我们没有保存任何关于你或你钱包的信息。`,
  notOpen: '白名单尚未开放。',
  closed: '白名单已关闭：目前无法加入。',
  malformed: '这不是我们能读取的 Sign-In with Ethereum 消息。请再次点击按钮，获取新的消息。',
  wrongDomain: ({ domain }) => `该消息是发给其他网站的。本站只接受发给 ${domain} 的消息。`,
  wrongUri: ({ uri }) => `该消息写明的地址不是 ${uri}。`,
  wrongChain: ({ chainId }) => `该消息对应的是其他网络。预售所在的网络是链 ID ${chainId}。`,
  wrongStatement: '该消息的内容与本站请您签署的内容不符。请再次点击按钮。',
  unknownNonce: '该消息并非由本站生成。请再次点击按钮，获取新的消息。',
  usedNonce: '该消息已被使用过。每条消息只能使用一次：请再次点击按钮。',
  expired: '该消息已过期（每条消息的有效期为 10 分钟）。请再次点击按钮。',
  otherAddress: '该消息是为另一个地址生成的，与其中写明的地址不符。',
  otherSigner: ({ address }) => `该签名并非由 ${address} 生成。请使用持有该地址的钱包签名。`,
  unreadableSignature: '无法读取该签名。请重新签名。',
  highS:
    '该签名的形式没有任何钱包会生成（其 “s” 值位于上半部分，自 EIP-2 起以太坊即拒绝此类签名），尽管同一密钥可以生成它。请用您的钱包重新签名。',
  contractWalletUnchecked: ({ address }) =>
    `如果 ${address} 是智能合约钱包，本站目前还无法验证其签名：这需要连接 Ethereum 节点（ETH_RPC_URL），而该连接尚未配置。请使用普通钱包地址。`,
  contractWalletDown: '无法连接 Ethereum 节点来验证智能合约钱包。请过一分钟再试。',
  tooMany: ({ seconds }) => `来自您所在网络的尝试次数过多。请在 ${seconds} 秒后重试。`,
  tooFast: '操作速度快得不像真人。请等待几秒钟，然后再次点击按钮。',
  notOnList: ({ address }) => `${address} 不在最新的白名单快照中。`,
  noSnapshot: '尚未冻结任何白名单快照。',
  linkUnproved:
    '我们无法确认此请求来自已加入白名单的钱包：绑定邮箱需要一次新的签名。请重新签名加入（您在名单上的位置会保留），然后再添加您的邮箱。',
  linkAsked:
    '谢谢。如果此地址可以接收我们的邮件，我们会向其发送一封注明此钱包的邮件：只有点击邮件所指向页面上的按钮后，钱包才会绑定。如果该地址尚未确认订阅，还会收到一封确认链接邮件。',
};
