// The allowlist's words in Brazilian Portuguese: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { RichText } from '../../../src/shared/messages/rich-text.ts';
import type { WalletMessages, WalletPageWords, WalletRefusals } from '../../../src/shared/messages/allowlist.ts';
import { walletRefusals as english } from '../en/allowlist.ts';

export const walletPageWords: WalletPageWords = {
  headerJoin: 'Entrar na lista de acesso',
  headerClosed: 'Lista de acesso fechada',
  heading: 'Lista de acesso da pré-venda',
  intro:
    'Prove que você é dono de uma carteira assinando uma mensagem curta, e seu endereço entra na lista da pré-venda. É grátis.',
  closed: 'A lista de acesso está fechada por enquanto. Siga nossos canais para saber quando a próxima rodada abrir.',
  connect: 'Conectar carteira',
  never:
    'Esta página só pede à sua carteira que assine uma mensagem Sign-In with Ethereum. Ela nunca pede uma transação, uma aprovação de tokens ou um permit, e não pode movimentar seus fundos.',
  needs:
    'Para entrar, você precisa de JavaScript e de uma carteira: uma extensão do navegador ou o navegador dentro do app da sua carteira.',
  emailOffer:
    'Seja avisado quando a pré-venda abrir (opcional): primeiro enviamos um link de confirmação, e seu e-mail só conta depois que você clicar nele.',
  emailSubmit: 'Quero ser avisado quando a pré-venda abrir',
  whoMayJoin: ({ countries, terms }: { countries: string | null; terms: string }): RichText => [
    countries === null ? '' : `Residentes de ${countries} não podem entrar. `,
    'Entrar aceita os ',
    { link: 'termos da pré-venda', href: terms },
    countries === null
      ? ', na mensagem que você assina (em inglês, como exige o padrão Sign-In with Ethereum).'
      : ', e a mensagem que você assina declara que você não é residente desses países (em inglês, como exige o padrão Sign-In with Ethereum).',
  ],
};

export const walletMessages: WalletMessages = {
  connect: 'Conectar carteira',
  looking: 'Procurando carteiras neste navegador…',
  choose: 'Escolha sua carteira:',
  noWallet:
    'Nenhuma carteira foi encontrada neste navegador. Instale uma extensão de carteira ou abra esta página no navegador dentro do app da sua carteira:',
  openIn: ({ wallet }) => `Abrir em ${wallet}`,
  connecting: ({ wallet }) => `Pedindo seu endereço a ${wallet}…`,
  switching: ({ chainId }) => `Pedindo à sua carteira que mude para a rede da pré-venda (chain ${chainId})…`,
  wrongChain: ({ chainId, button }) =>
    `Sua carteira está em outra rede. Clique em “${button}” para mudar para a chain ${chainId} (ou mude na sua carteira).`,
  checking: 'Verificando a lista de acesso…',
  join: 'Assinar para entrar na lista de acesso',
  leave: 'Assinar para sair da lista de acesso',
  signing: 'Assine a mensagem na sua carteira. É grátis e não movimenta nada.',
  joined: ({ address, since }) => `${address} está na lista de acesso desde ${since}.`,
  notJoined: ({ address }) => `${address} ainda não está na lista de acesso.`,
  left: ({ address }) => `${address} saiu da lista de acesso.`,
  declined: 'Você recusou na sua carteira. Nada foi assinado e nada mudou.',
  walletError: 'Sua carteira não respondeu como esperado. Tente novamente.',
  accountChanged: ({ address }) =>
    `Sua carteira agora usa ${address}. Clique no botão para continuar com esse endereço.`,
};

export const walletRefusals: WalletRefusals = {
  // Stays English: EIP-4361 allows only ASCII in a statement, and the server checks the signed
  // message against English's words.
  statement: english.statement,
  restrictedCountry: ({ country }: { country: string }): string =>
    `Nosso servidor localiza sua conexão em ${country}, cujos residentes não podem entrar nesta lista de acesso (veja os termos da pré-venda). Se você mora em ${country}, não pode entrar. Se você não está em ${country}, a localização está errada: ela é estimada pelo endereço da sua rede e pode errar quando você viaja ou quando seu provedor encaminha seu tráfego por outro país. Tente de novo a partir de outra conexão. Nada sobre você ou sua carteira foi guardado.`,
  notOpen: 'A lista de acesso não está aberta.',
  closed: 'A lista de acesso está fechada: ninguém pode entrar agora.',
  malformed:
    'Essa não é uma mensagem Sign-In with Ethereum que consigamos ler. Clique no botão de novo para gerar uma nova.',
  wrongDomain: ({ domain }) => `Essa mensagem é para outro site. Este site só aceita mensagens para ${domain}.`,
  wrongUri: ({ uri }) => `Essa mensagem indica um endereço diferente de ${uri}.`,
  wrongChain: ({ chainId }) => `Essa mensagem é para outra rede. A rede da pré-venda é a chain ${chainId}.`,
  wrongStatement: 'Essa mensagem não diz o que este site pediu para você assinar. Clique no botão de novo.',
  unknownNonce: 'Essa mensagem não foi escrita por este site. Clique no botão de novo para gerar uma nova.',
  usedNonce: 'Essa mensagem já foi usada. Cada uma vale uma vez só: clique no botão de novo.',
  expired: 'Essa mensagem expirou (cada uma vale por 10 minutos). Clique no botão de novo.',
  otherAddress: 'Essa mensagem foi escrita para um endereço diferente do que ela indica.',
  otherSigner: ({ address }) =>
    `A assinatura não foi feita por ${address}. Assine com a carteira que detém esse endereço.`,
  unreadableSignature: 'Não foi possível ler essa assinatura. Assine de novo.',
  highS:
    'Essa assinatura está numa forma que nenhuma carteira produz (o valor “s” está na metade superior, que o Ethereum recusa desde o EIP-2), embora a mesma chave possa produzi-la. Assine de novo com a sua carteira.',
  contractWalletUnchecked: ({ address }) =>
    `Se ${address} for uma carteira de contrato inteligente, este site ainda não consegue verificar a assinatura dela: isso exige uma conexão com um nó Ethereum (ETH_RPC_URL), que não está configurada. Use um endereço de carteira comum.`,
  contractWalletDown:
    'Não conseguimos falar com o nó Ethereum para verificar uma carteira de contrato inteligente. Tente novamente em um minuto.',
  tooMany: ({ seconds }) => `Tentativas demais vindas da sua rede. Tente novamente em ${seconds} segundos.`,
  tooFast: 'Isso foi mais rápido do que uma pessoa conseguiria. Aguarde alguns segundos e clique no botão de novo.',
  notOnList: ({ address }) => `${address} não está no snapshot mais recente da lista de acesso.`,
  noSnapshot: 'Nenhum snapshot da lista de acesso foi congelado ainda.',
  linkUnproved:
    'Não conseguimos saber se este pedido vem da carteira que entrou na lista: vincular um e-mail exige uma assinatura nova. Assine para entrar de novo (seu lugar na lista é mantido) e depois adicione seu e-mail.',
  linkAsked:
    'Obrigado. Se este endereço puder receber nossos e-mails, enviaremos a ele um e-mail que cita esta carteira: a carteira só fica vinculada depois que o botão da página indicada for clicado. Se o endereço ainda não confirmou a inscrição, um link de confirmação também será enviado.',
};
