// Invite links, in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { ReferralsMessages } from '../../../src/shared/messages/referrals.ts';

export const referralsMessages: ReferralsMessages = {
  invitedLine: 'Um amigo convidou você. Cadastre-se abaixo para saber quando a pré-venda abrir.',
  page: {
    title: 'Seu link de convite',
    message: 'Compartilhe este link. Quando um amigo se cadastrar por ele e confirmar o e-mail, conta para você.',
  },
  blockHeading: 'Convide um amigo',
  linkLabel: 'Seu link de convite',
  copy: 'Copiar link',
  copied: 'Copiado',
  shareLabel: 'Compartilhar:',
  shareX: 'X (Twitter)',
  shareTelegram: 'Telegram',
  shareEmail: 'E-mail',
  shareText: 'Estou na lista da pré-venda. Venha também:',
  shareSubject: 'Entre na lista da pré-venda',
  count: ({ count }) => `Amigos que se cadastraram e confirmaram: ${count}`,
  rewardHeading: 'O que os convites rendem',
  pageLink: 'Sua página de convites',
  makeLink: {
    title: 'Seu link de convite',
    message: 'Você ainda não tem um link de convite. Pressione o botão para criar um.',
    button: 'Criar meu link de convite',
  },
  brokenLink: {
    title: 'Este link não funciona',
    message:
      'O link está incompleto, ou a pessoa a quem ele se destinava não está mais na lista. Use o link completo de um dos nossos e-mails.',
  },
  notConfirmed: {
    title: 'Confirme seu cadastro primeiro',
    message: 'Seu link de convite é criado quando você confirma o e-mail: use o link do e-mail que enviamos.',
  },
};
