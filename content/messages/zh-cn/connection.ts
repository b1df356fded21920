// What the scripts say when the server cannot be reached or read, in Simplified Chinese: a draft,
// not yet reviewed by a native speaker (./meta.ts).
import type { ConnectionWords } from '../../../src/shared/messages/connection.ts';

export const connectionWords: ConnectionWords = {
  offline: '无法连接到我们的服务器。请检查网络连接后重试。',
  unreadable: '服务器返回了我们无法读取的响应。请过一分钟再试。',
};
