// The words the public sees, in English: one file per surface, so a page's script carries only
// the words its code uses (a shared file would make one chunk of them all, loaded with the first
// island). The next locales (e.g. `../de/`, `../ar/`) export the same names and satisfy the same
// types. Values are plain strings, or plain functions of named parameters where a number or a list
// goes in: no formatter, no i18n library on the page.
// docs/decisions/0033-route-contracts-fields-and-message-codes.md
import type { CountdownLabels, CountdownMessages } from '../../../src/shared/messages/countdown.ts';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The presale countdown's sentence, to the minute (the ticking island says it too). */
export const countdownMessages: CountdownMessages = {
  open: 'The presale is open',
  opensIn: ({ days, hours, minutes }: { days: number; hours: number; minutes: number }): string => {
    const parts = [
      days > 0 ? plural(days, 'day', 'days') : '',
      hours > 0 ? plural(hours, 'hour', 'hours') : '',
      minutes > 0 ? plural(minutes, 'minute', 'minutes') : '',
    ].filter(Boolean);
    const last = parts.pop() ?? '';
    return `Presale opens in ${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last}`;
  },
};

/** The clock's units and the link once open: server-rendered only, so not in the island's script. */
export const countdownLabels: CountdownLabels = {
  units: { days: 'days', hours: 'hours', minutes: 'minutes', seconds: 'seconds' },
  join: 'Join the presale',
};
