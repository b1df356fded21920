// Linking a wallet on the presale allowlist to an email, in English: the email sent to the address
// for that one link, and the page its link opens (src/server/features/allowlist/wallet-link-*.ts lay them
// out). The wallet is shown whole where a person decides (the email's body, the page), grouped and
// left to right, on a line of its own after these words; its short form only in the subject.
// Nothing the asker typed is in either (decision 0011).
// docs/decisions/0043-messages-as-codes.md
import type { WalletLinkMessages } from '../../../src/shared/messages/emails.ts';

interface Site {
  /** "Diamond Hand (DH)" */
  site: string;
}
interface Wallet {
  /** The wallet's short form, for the subject only: "0x1234…abcd". */
  wallet: string;
}

export const walletLinkMessages: WalletLinkMessages = {
  email: {
    subject: ({ site, wallet }: Site & Wallet): string => `${site}: link the wallet ${wallet} to this email?`,
    hello: 'Hello,',
    asked: ({ site }: Site): string =>
      `Someone asked to link this wallet to this email address on the ${site} presale allowlist:`,
    check:
      'Check the whole address against your wallet, every character: someone else can make a wallet whose address starts and ends like yours.',
    meaning:
      'Linking tells the team that this address belongs to whoever holds that wallet, so that we can write to you here about its place on the allowlist. An address is linked to one wallet at most: linking this one replaces any wallet linked to it before. Linking moves no funds and gives no one access to your wallet.',
    /** After `meaning` in the plain-text body, where there is no button. */
    openAndPress: 'If that was you, open this link and press the button on the page:',
    button: 'Review the link to this wallet',
    pasteLink: 'Or paste this link into your browser:',
    validity:
      'The link works once and for 7 days. If it was not you, ignore this email: nothing is linked unless the button on that page is pressed.',
    stop: ({ name }: { name: string }): string => `Stop all emails from ${name}`,
  },
  page: {
    pending: {
      title: 'Link this wallet to your email?',
      message:
        'Check the whole address below against your wallet, every character: someone else can make a wallet whose address starts and ends like yours. Press the button to link this wallet to this email address on the presale allowlist: the team will know that both belong to the same person. A wallet linked to this address before is replaced. If you did not ask for this, close this page: nothing will be linked.',
      button: 'Link this wallet',
    },
    linked: {
      title: 'Wallet linked',
      message: 'The wallet below is now linked to this email address. You can close this page.',
    },
    expired: {
      title: 'This link has expired',
      message:
        'Links to a wallet work for 7 days. Ask again on the allowlist page with your wallet, and we will send a new one.',
    },
    usedLink: {
      title: 'This link does not work',
      message:
        'The link is incomplete, was already used, or a newer request from the same wallet replaced it. To link a wallet, ask on the allowlist page with that wallet.',
    },
  },
};
