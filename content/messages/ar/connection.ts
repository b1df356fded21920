// What the scripts say when the server cannot be reached or read, in Arabic: a draft, not yet
// reviewed by a native speaker (./meta.ts).
import type * as english from '../en/connection.ts';
import type { SameWords } from '../same-words.ts';
import type * as translated from './connection.ts';

export const offline = 'تعذّر الوصول إلى خادمنا. تحقّق من اتصالك وحاول مرة أخرى.';
export const unreadable = 'أرسل خادمنا ردًّا تعذّرت علينا قراءته. يُرجى المحاولة مرة أخرى بعد دقيقة.';

export type Checked = SameWords<typeof english, typeof translated>;
