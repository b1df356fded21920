// The wallet button's words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Named constants as in English; Checked refuses a name English has and this lacks, or
// one it adds.
import type * as english from '../en/wallet.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './wallet.ts';

export const connect = '连接钱包';
export const soon = '即将推出';
export const soonDescription = '即将推出：钱包连接功能尚未开放。';
export const soonAnnounced = '连接钱包功能即将推出。';

export type Checked = SameWords<typeof english, typeof translated>;
