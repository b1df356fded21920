// The sign-up form's words and the server's answers, in Spanish: a draft, not yet reviewed by a
// native speaker (./meta.ts). Typed by the English file. "Suscribirse" for signing up to a list,
// so "registros" can mean the server's logs in the privacy notice without a clash.
import type { SignupAnswers, SignupMessages } from '../../../src/shared/messages/signup.ts';
// A field's words not yet translated are English's (content/messages/translations.test.ts lists them).
import { signupMessages as english } from '../en/signup.ts';

export const signupMessages: SignupMessages = {
  labels: {
    ...english.labels,
    name: 'Nombre',
    email: 'Correo electrónico',
    comment: 'Comentario',
    website: 'Sitio web',
  },
  optional: '(opcional)',
  consent:
    'Al suscribirte, aceptas que te enviemos correos sobre Diamond Hand (DH): la preventa y novedades del proyecto. Cada correo incluye un enlace para dejar de recibirlos al instante; consulta nuestro aviso de privacidad.',
  privacyLink: 'Aviso de privacidad',
  submit: 'Enviar',
  sending: 'Enviando…',
  invalid: 'Corrige los campos marcados.',
  fieldErrors: {
    ...english.fieldErrors,
    'name.required': 'Escribe tu nombre.',
    'name.tooLong': ({ name }) => `Tu nombre puede tener como máximo ${name} caracteres.`,
    'name.lines': 'Escribe tu nombre en una sola línea.',
    'name.control':
      'Tu nombre contiene un carácter que no podemos aceptar (un carácter de control invisible). Vuelve a escribirlo.',
    'name.invisible': 'Tu nombre contiene caracteres de formato invisibles. Vuelve a escribirlo sin ellos.',
    'name.url': 'Escribe solo tu nombre, sin direcciones web ni enlaces.',
    'email.required': 'Escribe tu dirección de correo electrónico.',
    'email.localTooLong': ({ emailLocalPart }) =>
      `La parte antes de la @ puede tener como máximo ${emailLocalPart} caracteres.`,
    'email.localAscii': "La parte antes de la @ solo puede usar las letras de la a a la z, dígitos y . _ ' + -.",
    'email.tooLong': ({ email }) => `Una dirección de correo puede tener como máximo ${email} caracteres.`,
    'email.invalid': 'Escribe una dirección de correo válida, como nombre@example.com.',
    'comment.notText': 'Tu comentario debe ser texto.',
    'comment.tooLong': ({ comment }) =>
      `Tu comentario puede tener como máximo ${comment.toLocaleString('es')} caracteres.`,
    'comment.control':
      'Tu comentario contiene un carácter que no podemos aceptar (un carácter de control invisible). Elimínalo.',
    unreadable: 'Este campo contiene un carácter que no podemos leer. Vuelve a escribirlo.',
    invalid: 'Revisa este campo.',
  },
};

export const signupAnswers: SignupAnswers = {
  success:
    '¡Gracias! Revisa tu bandeja de entrada: te enviamos un correo. Haz clic en su enlace para confirmar tu suscripción.',
  formErrors: {
    'form.unknownFields': ({ fields }): string => `Este formulario solo admite estos campos: ${fields}.`,
    'form.shape': ({ required }): string => `Envía al menos estos campos: ${required}.`,
  },
  oneMorePress: 'Ya casi: pulsa Enviar una vez más para confirmar que eres una persona.',
  tooMany: ({ seconds }) => `Demasiadas suscripciones desde tu red. Vuelve a intentarlo en ${seconds} segundos.`,
  unreadable: 'No pudimos leer ese formulario. Vuelve a intentarlo.',
  tooLarge: 'Eso supera lo que admite este formulario (16 KB como máximo). Acorta tu comentario.',
  wrongType: 'Envía el formulario como un formulario web normal o como JSON.',
  notSaved: 'Algo falló de nuestro lado y tu suscripción no se guardó. Vuelve a intentarlo en un minuto.',
  storeDown: ({ seconds }) =>
    `Nuestra base de datos no responde en este momento, así que no pudimos guardar tu suscripción. Vuelve a intentarlo en ${seconds} segundos.`,
  restrictedCountry: ({ country }) =>
    `Nuestro servidor sitúa tu conexión en ${country}, cuyos residentes no pueden suscribirse a esta lista (consulta los términos de la preventa). Si vives en ${country}, no puedes suscribirte. Si no estás en ${country}, la búsqueda se equivoca: adivina a partir de la dirección de tu red. Vuelve a intentarlo desde otra conexión. No hemos guardado nada de lo que escribiste.`,
};
