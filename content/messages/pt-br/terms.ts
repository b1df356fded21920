// Os termos da pré-venda, em português do Brasil (rascunho: a página os mostra em inglês até que um
// falante nativo os revise; meta.ts).
import type { TermsPage } from '../../../src/shared/content-schema.ts';

export const terms: TermsPage = {
  title: 'Termos da pré-venda',
  sections: [
    {
      heading: 'O que é a lista de acesso',
      paragraphs: [
        'Entrar na lista de acesso coloca o endereço da sua carteira em uma lista de pessoas que querem participar da pré-venda. É grátis, não é uma compra e não lhe dá tokens, dinheiro nem direito de comprar uma quantidade determinada.',
        'Você entra assinando uma mensagem na sua carteira. Assinar não envia nenhuma transação nem dá permissão para mover seus fundos. Você pode sair da lista quando quiser, de qualquer lugar, assinando uma mensagem para sair.',
      ],
    },
    {
      heading: 'Quem pode entrar',
      paragraphs: [
        'Você só pode entrar se participar de uma pré-venda de tokens for legal onde você mora, e se não for residente de nenhum dos países excluídos citados abaixo.',
        'A mensagem que você assina para entrar diz que você aceita estes termos, na versão indicada abaixo, e que não é residente desses países. Guardamos essa mensagem assinada como a sua declaração.',
      ],
    },
    {
      heading: 'Riscos',
      paragraphs: [
        'Criptoativos são voláteis e você pode perder tudo o que investir. Nada neste site é aconselhamento financeiro, jurídico ou tributário.',
      ],
    },
    {
      heading: 'Mudanças',
      paragraphs: [
        'Se estes termos mudarem, terão uma nova versão. Sua inscrição mantém a versão que você aceitou; a equipe pode pedir que você assine de novo para aceitar uma mais recente.',
      ],
    },
  ],
};
