// The countdown's words in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file, so a missing key or other parameters do not compile.
import type { CountdownLabels, CountdownMessages } from '../../../src/shared/messages/countdown.ts';
import { counted } from './plural.ts';

export const countdownMessages: CountdownMessages = {
  open: 'البيع المسبق مفتوح الآن',
  // After "بعد", in the genitive ("بعد يومين"); Arabic repeats "و" before every part.
  opensIn: ({ days, hours, minutes }) => {
    const parts = [
      days > 0 ? counted(days, { one: 'يوم واحد', two: 'يومين', few: 'أيام', many: 'يومًا', other: 'يوم' }) : '',
      hours > 0 ? counted(hours, { one: 'ساعة واحدة', two: 'ساعتين', few: 'ساعات', many: 'ساعةً', other: 'ساعة' }) : '',
      minutes > 0
        ? counted(minutes, { one: 'دقيقة واحدة', two: 'دقيقتين', few: 'دقائق', many: 'دقيقةً', other: 'دقيقة' })
        : '',
    ].filter(Boolean);
    return `يبدأ البيع المسبق بعد ${parts.join(' و')}`;
  },
};

export const countdownLabels: CountdownLabels = {
  units: { days: 'أيام', hours: 'ساعات', minutes: 'دقائق', seconds: 'ثوانٍ' },
  join: 'انضم إلى البيع المسبق',
};
