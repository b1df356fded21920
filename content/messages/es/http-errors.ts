// The one error shape's words in Spanish: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { HttpErrorMessages } from '../../../src/shared/messages/http-errors.ts';

export const httpErrorMessages: HttpErrorMessages = {
  400: 'No pudimos leer esa solicitud. Revísala y vuelve a intentarlo.',
  403: 'Eso no está permitido.',
  404: 'No encontrado: no hay nada en esta dirección.',
  405: 'Esta dirección no admite este tipo de solicitud.',
  408: 'La solicitud tardó demasiado en llegar. Revisa tu conexión y vuelve a intentarlo.',
  413: 'Eso supera lo que admite esta dirección (16 KB como máximo). Envía menos.',
  415: 'Envía un formulario web normal o JSON.',
  429: 'Demasiadas solicitudes. Espera un minuto y vuelve a intentarlo.',
  503: 'Estamos ocupados o reiniciando. Vuelve a intentarlo en unos segundos.',
  500: 'Algo falló de nuestro lado. Vuelve a intentarlo en un minuto.',
  csrf: 'Falta tu token de seguridad o ha caducado. Recarga la página y vuelve a intentarlo.',
  crossSite: 'Este formulario solo se puede enviar desde nuestro propio sitio.',
  invalidFields: 'Corrige los campos indicados abajo.',
  storeDown: ({ seconds }) =>
    `Nuestra base de datos no responde en este momento, así que no se pudo guardar. Vuelve a intentarlo en ${seconds} segundos.`,
};
