// The privacy notice in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts), and the English notice is the one that binds until it is. Same sections, same
// facts, same order as ../en/privacy.ts: a change there is a change here, in the same commit.
import type { PrivacyMessages } from '../../../src/shared/messages/privacy.ts';

export const privacyMessages: PrivacyMessages = {
  title: 'Aviso de privacidade',
  intro: ({ site }) =>
    `Este aviso explica o que o site ${site} faz com informações sobre você. Ele é curto porque guardamos muito pouco.`,
  sections: ({ name }) => [
    {
      heading: 'Quando você visita',
      blocks: [
        {
          p: [
            'Nosso servidor não grava seu endereço IP em nenhum banco de dados, log ou arquivo. Os logs registram apenas o horário, a página pedida, o código da resposta e quanto tempo ela levou, para mantermos o site no ar. Para barrar enxurradas de inscrições falsas, ele guarda na memória, por um minuto, quantas inscrições vieram da sua rede; essa contagem nunca é gravada.',
          ],
        },
        {
          p: [
            'A página não carrega nada de nenhum outro site: todas as fontes, imagens e scripts vêm do nosso próprio servidor. Não usamos scripts de publicidade nem de análise de outras empresas.',
          ],
        },
      ],
    },
    {
      heading: 'Contagem de visitas',
      blocks: [
        {
          p: [
            'Para saber quantas pessoas vêm, de onde e para qual página, seu navegador nos envia uma pequena mensagem quando uma página termina de carregar: o endereço da página, o endereço do site que trouxe você até aqui, seu fuso horário e seu idioma. Ele não envia cookies e não lê nada guardado no seu navegador. Se o seu navegador envia Global Privacy Control ou Do Not Track, ele não envia nada e não contamos nada. Mecanismos de busca e outros robôs não são contados.',
          ],
        },
        { p: ['De cada visita, guardamos exatamente:'] },
        {
          ul: [
            ['o horário e a página visitada;'],
            ['apenas o nome do site que enviou você (por exemplo, t.co), nunca a página dentro dele;'],
            [
              'a cidade, a região, o país, as coordenadas aproximadas dessa área, o código postal, o fuso horário e a operadora de rede (como sua operadora de celular) que a nossa própria cópia de um banco de dados público de endereços indica para o endereço da sua conexão; o endereço em si é consultado na memória do nosso servidor e nunca é guardado;',
            ],
            ['o fuso horário e o idioma do seu navegador;'],
            [
              'um código de visitante, para que uma pessoa que visita duas vezes no mesmo dia conte uma só vez: uma mistura embaralhada do endereço da sua conexão e do nome do seu navegador com uma chave aleatória que muda todo dia. Apagamos a chave de cada dia após 48 horas; depois disso, ninguém, nem nós, consegue ligar um código a um endereço.',
            ],
          ],
        },
        {
          p: [
            'As visitas são guardadas por 90 dias e depois apagadas; a partir daí, ficam apenas os totais diários (visitas por página, site, país e cidade).',
          ],
        },
      ],
    },
    {
      heading: 'Cookies',
      blocks: [
        {
          p: [
            'Quando a página com o formulário de inscrição termina de carregar, definimos três pequenos cookies, só para proteger esse formulário, nunca para seguir você: ',
            { code: 'XSRF-TOKEN' },
            ' e ',
            { code: '_csrf' },
            ' provam que uma inscrição veio da nossa própria página e não de outro site, e ',
            { code: 'dh_t' },
            ' guarda quando eles foram definidos, porque um formulário enviado mais rápido do que uma pessoa consegue digitar é um robô. Eles duram 30 dias e são enviados apenas ao nosso próprio site (com https, os nomes deles começam com ',
            { code: '__Host-' },
            '). Com o JavaScript desativado, eles são definidos quando você clica em Enviar pela primeira vez.',
          ],
        },
      ],
    },
    {
      heading: 'O formulário de inscrição',
      blocks: [
        { p: ['Se você se inscrever, guardamos:'] },
        {
          ul: [
            ['seu nome, endereço de e-mail e comentário, exatamente como você os digitou;'],
            [
              'quando você se inscreveu, em qual página o formulário estava e qual versão do texto de consentimento ao lado do formulário você aceitou;',
            ],
            ['se você confirmou seu endereço, e quando; e se cancelou a inscrição, e quando;'],
            ['a cidade, a região e o país da conexão de onde você se inscreveu (não o endereço em si).'],
          ],
        },
        {
          p: [
            `Primeiro enviamos um e-mail pedindo que você confirme. Até você clicar no link dele, não recebe mais nada de nós; um endereço não confirmado nunca recebe outro e-mail, a menos que você se inscreva de novo, e mesmo assim no máximo uma vez a cada 15 minutos. Depois de confirmado, só enviamos e-mails sobre ${name}: a pré-venda e novidades do projeto. Não vendemos nem compartilhamos seus dados. Nossos e-mails são enviados pelo nosso provedor de e-mail, que vê o endereço para o qual os entrega.`,
          ],
        },
      ],
    },
    {
      heading: 'A lista de acesso da pré-venda',
      blocks: [
        {
          p: [
            'Quando a lista de acesso está aberta, você pode colocar nela um endereço de carteira assinando uma mensagem curta na sua carteira. A assinatura prova que você controla o endereço; ela não custa nada, não envia nenhuma transação e não dá permissão para movimentar seus fundos. Guardamos:',
          ],
        },
        {
          ul: [
            ['o endereço da carteira (que, de todo modo, é público na blockchain) e quando ele entrou na lista;'],
            ['o país da conexão de onde ele entrou (não o endereço em si), para ver de onde vem o interesse;'],
            [
              'se você escolher, logo depois de entrar, ser avisado por e-mail quando a pré-venda abrir: um vínculo entre o endereço da carteira e sua inscrição (seu endereço de e-mail em si fica guardado com a sua inscrição, como descrito acima). Ele só conta depois que você clicar no link de confirmação; sair da lista, ou pedir que sua inscrição seja apagada, o remove. A equipe vê apenas se um endereço tem um e-mail confirmado vinculado, não qual.',
            ],
          ],
        },
        {
          p: [
            'Guardamos esses dados para que a equipe possa colocar a lista no contrato da pré-venda (como uma raiz de Merkle) e a página da pré-venda possa provar que um endereço está nela; a lista, e qualquer cópia congelada dela, mostra apenas endereços. Você pode sair da lista com outra assinatura a qualquer momento; uma cópia congelada para a venda antes de você sair mantém seu endereço. Sua carteira conversa apenas com este site: esta página não contata nenhum serviço de carteira nem qualquer outro terceiro.',
          ],
        },
      ],
    },
    {
      heading: 'Parar os e-mails e apagar seus dados',
      blocks: [
        {
          p: [
            'Todo e-mail que enviamos tem um link que interrompe na hora todos os próximos e-mails, com um só clique. Você também pode nos pedir para mostrar, corrigir ou apagar tudo o que temos sobre você pelos nossos canais oficiais no Telegram ou no Twitter.',
          ],
        },
      ],
    },
    {
      heading: 'Links para outros sites',
      blocks: [
        {
          p: [
            'Nossos botões do Twitter e do Telegram levam você a esses serviços. O que eles coletam é regido pelos avisos de privacidade deles.',
          ],
        },
      ],
    },
    {
      heading: 'Créditos',
      blocks: [
        {
          p: [
            'Os locais são consultados nos dados GeoLite2 criados pela MaxMind, disponíveis em ',
            { link: 'maxmind.com', href: 'https://www.maxmind.com' },
            ', e as operadoras de rede, em dados do ',
            { link: 'DB-IP.com', href: 'https://db-ip.com' },
            '; ambos ficam no nosso próprio servidor.',
          ],
        },
      ],
    },
  ],
  backLink: 'Voltar para a página inicial',
};
