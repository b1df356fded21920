// The allowlist's words in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { RichText } from '../../../src/shared/messages/rich-text.ts';
import type { WalletMessages, WalletPageWords, WalletRefusals } from '../../../src/shared/messages/allowlist.ts';
import { walletRefusals as english } from '../en/allowlist.ts';
import { counted, secondsAfter } from './plural.ts';

export const walletPageWords: WalletPageWords = {
  headerJoin: 'الانضمام إلى قائمة السماح',
  headerClosed: 'قائمة السماح مغلقة',
  heading: 'قائمة السماح للبيع المسبق',
  intro: 'أثبت أنك تملك محفظة بتوقيع رسالة قصيرة، فيُضاف عنوانك إلى قائمة البيع المسبق. الأمر مجاني.',
  closed: 'قائمة السماح مغلقة حاليًا. تابع قنواتنا لتعرف متى تُفتح الجولة التالية.',
  connect: 'ربط المحفظة',
  never:
    'لا تطلب هذه الصفحة من محفظتك إلا توقيع رسالة Sign-In with Ethereum. لا تطلب أبدًا معاملة، ولا موافقة على إنفاق الرموز، ولا permit، ولا يمكنها تحريك أموالك.',
  needs: 'يتطلب الانضمام تفعيل JavaScript ووجود محفظة: إضافة للمتصفح، أو المتصفح المدمج في تطبيق محفظتك.',
  emailOffer:
    'احصل على إشعار عند بدء البيع المسبق (اختياري): نرسل إليك أولًا رابط تأكيد، ولا يُحتسب بريدك إلا بعد أن تضغط عليه.',
  emailSubmit: 'أخبروني عند بدء البيع المسبق',
  whoMayJoin: ({ countries, terms }: { countries: string | null; terms: string }): RichText => [
    countries === null ? '' : `لا يمكن للمقيمين في ${countries} الانضمام. `,
    'الانضمام يعني قبول ',
    { link: 'شروط البيع المسبق', href: terms },
    countries === null
      ? '، في الرسالة التي توقّعها (بالإنجليزية، كما يشترط معيار Sign-In with Ethereum).'
      : '، والرسالة التي توقّعها تُقرّ بأنك لست مقيمًا في هذه الدول (بالإنجليزية، كما يشترط معيار Sign-In with Ethereum).',
  ],
};

export const walletMessages: WalletMessages = {
  connect: 'ربط المحفظة',
  looking: 'جارٍ البحث عن محافظ في هذا المتصفح…',
  choose: 'اختر محفظتك:',
  noWallet:
    'لم يُعثر على أي محفظة في هذا المتصفح. ثبّت إضافة محفظة، أو افتح هذه الصفحة في المتصفح المدمج في تطبيق محفظتك:',
  openIn: ({ wallet }) => `فتح في ${wallet}`,
  connecting: ({ wallet }) => `جارٍ طلب عنوانك من ${wallet}…`,
  switching: ({ chainId }) => `جارٍ طلب تبديل محفظتك إلى شبكة البيع المسبق (السلسلة ${chainId})…`,
  wrongChain: ({ chainId, button }) =>
    `محفظتك على شبكة أخرى. اضغط على «${button}» لتبديلها إلى السلسلة ${chainId} (أو بدّلها من محفظتك).`,
  checking: 'جارٍ التحقق من قائمة السماح…',
  join: 'وقّع للانضمام إلى قائمة السماح',
  leave: 'وقّع لمغادرة قائمة السماح',
  signing: 'يُرجى توقيع الرسالة في محفظتك. التوقيع مجاني ولا يحرّك أي شيء.',
  joined: ({ address, since }) => `${address} في قائمة السماح منذ ${since}.`,
  notJoined: ({ address }) => `${address} ليس في قائمة السماح بعد.`,
  left: ({ address }) => `غادر ${address} قائمة السماح.`,
  declined: 'رفضت الطلب في محفظتك. لم يُوقَّع شيء ولم يتغيّر شيء.',
  walletError: 'لم تستجب محفظتك كما هو متوقع. يُرجى المحاولة مرة أخرى.',
  accountChanged: ({ address }) => `محفظتك تستخدم الآن ${address}. اضغط على الزر للمتابعة بهذا العنوان.`,
};

export const walletRefusals: WalletRefusals = {
  // Stays English: EIP-4361 allows only ASCII in a statement, and the server checks the signed
  // message against English's words.
  statement: english.statement,
  notOpen: 'قائمة السماح غير مفتوحة.',
  closed: 'قائمة السماح مغلقة: لا يمكن لأحد الانضمام إليها الآن.',
  malformed:
    'هذه ليست رسالة Sign-In with Ethereum يمكننا قراءتها. يُرجى الضغط على الزر مرة أخرى للحصول على رسالة جديدة.',
  wrongDomain: ({ domain }) => `هذه الرسالة موجّهة إلى موقع آخر. لا يقبل هذا الموقع إلا الرسائل الموجّهة إلى ${domain}.`,
  wrongUri: ({ uri }) => `تذكر هذه الرسالة عنوانًا غير ${uri}.`,
  wrongChain: ({ chainId }) => `هذه الرسالة لشبكة أخرى. شبكة البيع المسبق هي السلسلة ${chainId}.`,
  wrongStatement: 'لا تقول هذه الرسالة ما طلب منك هذا الموقع توقيعه. يُرجى الضغط على الزر مرة أخرى.',
  unknownNonce: 'لم يكتب هذا الموقع هذه الرسالة. يُرجى الضغط على الزر مرة أخرى للحصول على رسالة جديدة.',
  usedNonce: 'سبق استخدام هذه الرسالة. كل رسالة تُحتسب مرة واحدة: يُرجى الضغط على الزر مرة أخرى.',
  expired: 'انتهت صلاحية هذه الرسالة (كل رسالة صالحة لمدة 10 دقائق). يُرجى الضغط على الزر مرة أخرى.',
  otherAddress: 'كُتبت هذه الرسالة لعنوان غير العنوان الذي تذكره.',
  otherSigner: ({ address }) => `لم يُنشئ ${address} هذا التوقيع. يُرجى التوقيع بالمحفظة التي تملك هذا العنوان.`,
  unreadableSignature: 'تعذّرت قراءة هذا التوقيع. يُرجى التوقيع مرة أخرى.',
  highS:
    'هذا التوقيع بصيغة لا تُنتجها أي محفظة (قيمة “s” فيه في النصف الأعلى، وهو ما يرفضه Ethereum منذ EIP-2)، وإن كان المفتاح نفسه قادرًا على إنتاجه. يُرجى التوقيع مرة أخرى بمحفظتك.',
  contractWalletUnchecked: ({ address }) =>
    `إذا كان ${address} محفظة عقد ذكي، فلا يستطيع هذا الموقع التحقق من توقيعها بعد: فذلك يتطلب اتصالًا بعقدة Ethereum (ETH_RPC_URL)، وهو غير مُعَدّ. يُرجى استخدام عنوان محفظة عادية.`,
  contractWalletDown: 'تعذّر علينا الوصول إلى عقدة Ethereum للتحقق من محفظة عقد ذكي. يُرجى المحاولة مرة أخرى بعد دقيقة.',
  tooMany: ({ seconds }) => `محاولات كثيرة جدًا من شبكتك. يُرجى المحاولة مرة أخرى بعد ${counted(seconds, secondsAfter)}.`,
  tooFast: 'كان ذلك أسرع مما يستطيعه إنسان. يُرجى الانتظار بضع ثوانٍ ثم الضغط على الزر مرة أخرى.',
  notOnList: ({ address }) => `${address} ليس في أحدث لقطة لقائمة السماح.`,
  noSnapshot: 'لم تُجمَّد أي لقطة لقائمة السماح بعد.',
  linkUnproved:
    'لا يمكننا التأكد من أن هذا الطلب صادر عن المحفظة التي انضمت: ربط بريد إلكتروني يتطلب توقيعًا جديدًا. يُرجى التوقيع للانضمام مرة أخرى (يبقى مكانك في القائمة محفوظًا)، ثم إضافة بريدك الإلكتروني.',
  linkAsked:
    'شكرًا لك. إذا كان هذا العنوان يستطيع تلقّي رسائلنا، فسنرسل إليه رسالة تذكر هذه المحفظة: ولا تُربط المحفظة إلا بعد الضغط على الزر في الصفحة التي يقود إليها الرابط. وإن لم يكن العنوان قد أكّد اشتراكه بعد، فسيصله رابط تأكيد أيضًا.',
};
