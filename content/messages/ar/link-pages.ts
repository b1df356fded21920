// The pages our emails' links open, in Arabic: a draft, not yet reviewed by a native speaker
// (./meta.ts). Typed by the English file.
import type { LinkPageMessages } from '../../../src/shared/messages/link-pages.ts';
import { counted, secondsAfter } from './plural.ts';

export const linkPageMessages: LinkPageMessages = {
  brokenLink: {
    title: 'هذا الرابط لا يعمل',
    message: 'الرابط غير مكتمل. استخدم الرابط الكامل من إحدى رسائلنا.',
  },
  usedLink: {
    title: 'هذا الرابط لا يعمل',
    message: 'الرابط غير مكتمل أو سبق استخدامه. اشترك من جديد من الصفحة الرئيسية للحصول على رابط جديد.',
  },
  expired: {
    title: 'انتهت صلاحية هذا الرابط',
    message: 'روابط التأكيد صالحة لمدة 7 أيام. اشترك من جديد من الصفحة الرئيسية وسنرسل إليك رابطًا جديدًا.',
  },
  alreadyConfirmed: {
    title: 'تم التأكيد مسبقًا',
    message: 'سبق تأكيد عنوان البريد الإلكتروني هذا. أنت في القائمة.',
  },
  storeDown: ({ seconds }) => ({
    title: 'يُرجى المحاولة مرة أخرى بعد دقيقة',
    message: `قاعدة بياناتنا لا تستجيب حاليًا، لذا لم يتغيّر شيء. رابطك ما زال صالحًا: افتحه مرة أخرى بعد ${counted(seconds, secondsAfter)}.`,
  }),
  confirmPending: {
    title: 'أكّد اشتراكك',
    message:
      'اضغط على الزر لتأكيد رغبتك في تلقّي رسائل حول البيع المسبق على هذا العنوان. إن لم تكن قد اشتركت، فأغلق هذه الصفحة: لن يحدث شيء.',
    button: 'تأكيد اشتراكي',
  },
  confirmed: {
    title: 'أنت في القائمة',
    message: 'تم تأكيد عنوان بريدك الإلكتروني. سنخبرك فور بدء البيع المسبق.',
  },
  unsubscribeBroken: {
    title: 'هذا الرابط لا يعمل',
    message: 'رابط إلغاء الاشتراك غير مكتمل. استخدم الرابط الكامل من إحدى رسائلنا.',
  },
  unsubscribePending: {
    title: 'إلغاء الاشتراك في رسائلنا؟',
    message: 'اضغط على الزر لإيقاف جميع رسائلنا إلى هذا العنوان. يمكنك الاشتراك من جديد في أي وقت.',
    button: 'إلغاء اشتراكي',
  },
  unsubscribed: {
    title: 'تم إلغاء اشتراكك',
    message: 'لن نراسلك مرة أخرى. إن غيّرت رأيك، فاشترك من جديد من الصفحة الرئيسية.',
  },
  oneClickInvalid: 'رابط إلغاء الاشتراك هذا غير صالح.',
  oneClickDone: 'تم إلغاء الاشتراك. لن نراسلك مرة أخرى.',
};
