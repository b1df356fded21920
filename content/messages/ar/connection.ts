// What the scripts say when the server cannot be reached or read, in Arabic: a draft, not yet
// reviewed by a native speaker (./meta.ts).
import type { ConnectionWords } from '../../../src/shared/messages/connection.ts';

export const connectionWords: ConnectionWords = {
  offline: 'تعذّر الوصول إلى خادمنا. تحقّق من اتصالك وحاول مرة أخرى.',
  unreadable: 'أرسل خادمنا ردًّا تعذّرت علينا قراءته. يُرجى المحاولة مرة أخرى بعد دقيقة.',
};
