// The sign-up form's words and the server's answers, in Brazilian Portuguese: a draft, not yet
// reviewed by a native speaker (./meta.ts). Typed by the English file.
import type { SignupAnswers, SignupMessages } from '../../../src/shared/messages/signup.ts';
// A field's words not yet translated are English's (content/messages/translations.test.ts lists them).
import { signupMessages as english } from '../en/signup.ts';

export const signupMessages: SignupMessages = {
  labels: { ...english.labels, name: 'Nome', email: 'E-mail', comment: 'Comentário', website: 'Site' },
  optional: '(opcional)',
  consent:
    'Ao se inscrever, você concorda em receber nossos e-mails sobre Diamond Hand (DH): a pré-venda e novidades do projeto. Todo e-mail traz um link para cancelá-los na hora; veja nosso aviso de privacidade.',
  privacyLink: 'Aviso de privacidade',
  submit: 'Enviar',
  sending: 'Enviando…',
  invalid: 'Corrija os campos destacados.',
  fieldErrors: {
    ...english.fieldErrors,
    'name.required': 'Digite seu nome.',
    'name.tooLong': ({ name }) => `Seu nome pode ter no máximo ${name} caracteres.`,
    'name.lines': 'Escreva seu nome em uma única linha.',
    'name.control':
      'Seu nome contém um caractere que não podemos aceitar (um caractere de controle invisível). Digite-o novamente.',
    'name.invisible': 'Seu nome contém caracteres de formatação invisíveis. Digite-o novamente sem eles.',
    'name.url': 'Digite apenas seu nome, sem endereços da web ou links.',
    'email.required': 'Digite seu endereço de e-mail.',
    'email.localTooLong': ({ emailLocalPart }) => `A parte antes do @ pode ter no máximo ${emailLocalPart} caracteres.`,
    'email.localAscii': "A parte antes do @ só pode usar as letras de a a z, algarismos e . _ ' + -.",
    'email.tooLong': ({ email }) => `Um endereço de e-mail pode ter no máximo ${email} caracteres.`,
    'email.invalid': 'Digite um endereço de e-mail válido, como nome@example.com.',
    'comment.notText': 'Seu comentário precisa ser texto.',
    'comment.tooLong': ({ comment }) =>
      `Seu comentário pode ter no máximo ${comment.toLocaleString('pt-BR')} caracteres.`,
    'comment.control':
      'Seu comentário contém um caractere que não podemos aceitar (um caractere de controle invisível). Remova-o.',
    unreadable: 'Este campo contém um caractere que não conseguimos ler. Digite-o novamente.',
    invalid: 'Verifique este campo.',
  },
};

export const signupAnswers: SignupAnswers = {
  success:
    'Obrigado! Procure na sua caixa de entrada um e-mail nosso e clique no link dele para confirmar sua inscrição.',
  formErrors: {
    'form.unknownFields': ({ fields }): string => `Este formulário aceita apenas estes campos: ${fields}.`,
    'form.shape': ({ required }): string => `Envie pelo menos estes campos: ${required}.`,
  },
  oneMorePress: 'Quase lá: clique em Enviar mais uma vez para confirmar que você é uma pessoa.',
  tooMany: ({ seconds }) => `Muitas inscrições vindas da sua rede. Tente novamente em ${seconds} segundos.`,
  unreadable: 'Não conseguimos ler esse formulário. Tente novamente.',
  tooLarge: 'Isso passa do que este formulário aceita (16 KB no máximo). Encurte seu comentário.',
  wrongType: 'Envie o formulário como um formulário web comum ou como JSON.',
  notSaved: 'Algo deu errado do nosso lado e sua inscrição não foi salva. Tente novamente em um minuto.',
  storeDown: ({ seconds }) =>
    `Nosso banco de dados não está respondendo no momento, então sua inscrição não pôde ser salva. Tente novamente em ${seconds} segundos.`,
  restrictedCountry: ({ country }) =>
    `Nosso servidor localiza sua conexão em ${country}, cujos residentes não podem se inscrever nesta lista (veja os termos da pré-venda). Se você mora em ${country}, não pode se inscrever. Se você não está em ${country}, a localização está errada: ela é estimada pelo endereço da sua rede. Tente de novo a partir de outra conexão. Nada do que você digitou foi guardado.`,
};
