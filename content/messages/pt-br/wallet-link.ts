// Vincular uma carteira a um e-mail, in Brazilian Portuguese: a draft, not yet reviewed by a native
// speaker (./meta.ts). Typed by the English file.
import type { WalletLinkMessages } from '../../../src/shared/messages/emails.ts';

export const walletLinkMessages: WalletLinkMessages = {
  email: {
    subject: ({ site, wallet }) => `${site}: vincular a carteira ${wallet} a este e-mail?`,
    hello: 'Olá,',
    asked: ({ site }) =>
      `Alguém pediu para vincular esta carteira a este endereço de e-mail na lista de acesso da pré-venda de ${site}:`,
    check:
      'Confira o endereço inteiro com o da sua carteira, caractere por caractere: outra pessoa pode criar uma carteira cujo endereço começa e termina como o seu.',
    meaning:
      'Vincular informa à equipe que este endereço pertence a quem tem essa carteira, para que possamos escrever para você aqui sobre o lugar dela na lista. Um endereço fica vinculado a no máximo uma carteira: vincular esta substitui qualquer carteira vinculada antes. Vincular não movimenta fundos nem dá a ninguém acesso à sua carteira.',
    openAndPress: 'Se foi você, abra este link e clique no botão da página:',
    button: 'Revisar o vínculo com esta carteira',
    pasteLink: 'Ou cole este link no seu navegador:',
    validity:
      'O link funciona uma única vez e vale por 7 dias. Se não foi você, ignore este e-mail: nada é vinculado a menos que o botão dessa página seja clicado.',
    stop: ({ name }) => `Parar de receber e-mails de ${name}`,
  },
  page: {
    pending: {
      title: 'Vincular esta carteira ao seu e-mail?',
      message:
        'Confira o endereço inteiro abaixo com o da sua carteira, caractere por caractere: outra pessoa pode criar uma carteira cujo endereço começa e termina como o seu. Clique no botão para vincular esta carteira a este endereço de e-mail na lista de acesso da pré-venda: a equipe saberá que os dois pertencem à mesma pessoa. Uma carteira vinculada antes a este endereço é substituída. Se você não pediu isso, feche esta página: nada será vinculado.',
      button: 'Vincular esta carteira',
    },
    linked: {
      title: 'Carteira vinculada',
      message: 'A carteira abaixo agora está vinculada a este endereço de e-mail. Você pode fechar esta página.',
    },
    expired: {
      title: 'Este link expirou',
      message:
        'Os links para vincular uma carteira valem por 7 dias. Peça de novo na página da lista de acesso com a sua carteira e enviaremos um novo.',
    },
    usedLink: {
      title: 'Este link não funciona',
      message:
        'O link está incompleto, já foi usado ou foi substituído por um pedido mais recente da mesma carteira. Para vincular uma carteira, peça na página da lista de acesso com essa carteira.',
    },
  },
};
