// The countdown's words in Simplified Chinese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file, so a missing key or other parameters do not compile.
import type { CountdownLabels, CountdownMessages } from '../../../src/shared/messages/countdown.ts';

export const countdownMessages: CountdownMessages = {
  open: '预售已开启',
  // No plural forms and no "and": "距预售开启还有 2 天 3 小时 5 分钟".
  opensIn: ({ days, hours, minutes }) => {
    const parts = [
      days > 0 ? `${days} 天` : '',
      hours > 0 ? `${hours} 小时` : '',
      minutes > 0 ? `${minutes} 分钟` : '',
    ].filter(Boolean);
    return `距预售开启还有 ${parts.join(' ')}`;
  },
};

export const countdownLabels: CountdownLabels = {
  units: { days: '天', hours: '小时', minutes: '分钟', seconds: '秒' },
  join: '参与预售',
};
