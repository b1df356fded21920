// The countdown's words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file, so a missing key or other parameters do not compile.
import type { CountdownLabels, CountdownMessages } from '../en/countdown.ts';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export const countdownMessages: CountdownMessages = {
  open: 'La preventa está abierta',
  opensIn: ({ days, hours, minutes }) => {
    const parts = [
      days > 0 ? plural(days, 'día', 'días') : '',
      hours > 0 ? plural(hours, 'hora', 'horas') : '',
      minutes > 0 ? plural(minutes, 'minuto', 'minutos') : '',
    ].filter(Boolean);
    // The browser's own list rules ("2 días, 3 horas y 5 minutos"): no bytes, and the "y"/"e" rule.
    return `La preventa abre en ${new Intl.ListFormat('es', { type: 'conjunction' }).format(parts)}`;
  },
};

export const countdownLabels: CountdownLabels = {
  units: { days: 'días', hours: 'horas', minutes: 'minutos', seconds: 'segundos' },
  join: 'Únete a la preventa',
};
