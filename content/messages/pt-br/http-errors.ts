// The one error shape's words in Brazilian Portuguese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { HttpErrorMessages } from '../../../src/shared/messages/http-errors.ts';

export const httpErrorMessages: HttpErrorMessages = {
  400: 'Não conseguimos ler essa solicitação. Verifique-a e tente novamente.',
  403: 'Isso não é permitido.',
  404: 'Não encontrado: não há nada neste endereço.',
  405: 'Este endereço não aceita este tipo de solicitação.',
  408: 'A solicitação demorou demais para chegar. Verifique sua conexão e tente novamente.',
  413: 'Isso passa do que este endereço aceita (16 KB no máximo). Envie menos.',
  415: 'Envie um formulário web comum ou JSON.',
  429: 'Solicitações demais. Aguarde um minuto e tente novamente.',
  503: 'Estamos ocupados ou reiniciando. Tente novamente em alguns segundos.',
  500: 'Algo deu errado do nosso lado. Tente novamente em um minuto.',
  csrf: 'Seu token de segurança está faltando ou expirou. Recarregue a página e tente novamente.',
  crossSite: 'Este formulário só pode ser enviado pelo nosso próprio site.',
  invalidFields: 'Corrija os campos indicados abaixo.',
  storeDown: ({ seconds }) =>
    `Nosso banco de dados não está respondendo no momento, então nada pôde ser salvo. Tente novamente em ${seconds} segundos.`,
};
