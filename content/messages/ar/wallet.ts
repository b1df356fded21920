// The wallet button's words in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
// Named constants as in English; Checked refuses a name English has and this lacks, or one it adds.
import type * as english from '../en/wallet.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './wallet.ts';

export const connect = 'ربط المحفظة';
export const soon = 'قريبًا';
export const soonDescription = 'قريبًا: ربط المحفظة غير متاح بعد.';
export const soonAnnounced = 'ربط المحفظة سيتوفّر قريبًا.';

export type Checked = SameWords<typeof english, typeof translated>;
