// The countdown's words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file, so a missing key or other parameters do not compile.
import type { CountdownLabels, CountdownMessages } from '../en/countdown.ts';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export const countdownMessages: CountdownMessages = {
  open: 'A pré-venda está aberta',
  opensIn: ({ days, hours, minutes }) => {
    const parts = [
      days > 0 ? plural(days, 'dia', 'dias') : '',
      hours > 0 ? plural(hours, 'hora', 'horas') : '',
      minutes > 0 ? plural(minutes, 'minuto', 'minutos') : '',
    ].filter(Boolean);
    // The browser's own list rules ("2 dias, 3 horas e 5 minutos"), at no cost in bytes.
    return `A pré-venda abre em ${new Intl.ListFormat('pt-BR', { type: 'conjunction' }).format(parts)}`;
  },
};

export const countdownLabels: CountdownLabels = {
  units: { days: 'dias', hours: 'horas', minutes: 'minutos', seconds: 'segundos' },
  join: 'Participe da pré-venda',
};
