// The countdown's words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file, so a missing key or other parameters do not compile.
import { countedList } from '../../../src/shared/messages/counted-list.ts';
import type { CountdownLabels, CountdownMessages } from '../../../src/shared/messages/countdown.ts';

export const countdownMessages: CountdownMessages = {
  open: 'A pré-venda está aberta',
  opensIn: ({ days, hours, minutes }) =>
    `A pré-venda abre em ${countedList('pt-BR', [
      [days, 'dia', 'dias'],
      [hours, 'hora', 'horas'],
      [minutes, 'minuto', 'minutos'],
    ])}`,
};

export const countdownLabels: CountdownLabels = {
  units: { days: 'dias', hours: 'horas', minutes: 'minutos', seconds: 'segundos' },
  join: 'Participe da pré-venda',
};
