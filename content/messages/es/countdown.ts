// The countdown's words in Spanish: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file, so a missing key or other parameters do not compile.
import { countedList } from '../../../src/shared/messages/counted-list.ts';
import type { CountdownLabels, CountdownMessages } from '../../../src/shared/messages/countdown.ts';

export const countdownMessages: CountdownMessages = {
  open: 'La preventa está abierta',
  opensIn: ({ days, hours, minutes }) =>
    `La preventa abre en ${countedList('es', [
      [days, 'día', 'días'],
      [hours, 'hora', 'horas'],
      [minutes, 'minuto', 'minutos'],
    ])}`,
};

export const countdownLabels: CountdownLabels = {
  units: { days: 'días', hours: 'horas', minutes: 'minutos', seconds: 'segundos' },
  join: 'Únete a la preventa',
};
