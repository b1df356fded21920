// Invite links, in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts). Typed by
// the English file.
import type { ReferralsMessages } from '../../../src/shared/messages/referrals.ts';

export const referralsMessages: ReferralsMessages = {
  invitedLine: 'دعاك صديق. اشترك أدناه لتعرف متى يبدأ البيع المسبق.',
  page: {
    title: 'رابط دعوتك',
    message: 'شارك هذا الرابط. عندما يشترك صديق من خلاله ويؤكّد بريده الإلكتروني، تُحتسب الدعوة لك.',
  },
  blockHeading: 'ادعُ صديقًا',
  linkLabel: 'رابط دعوتك',
  copy: 'نسخ الرابط',
  copied: 'تم النسخ',
  shareLabel: 'مشاركة:',
  shareX: 'X (تويتر)',
  shareTelegram: 'تيليجرام',
  shareEmail: 'البريد الإلكتروني',
  shareText: 'أنا في قائمة البيع المسبق. انضم إليّ:',
  shareSubject: 'انضم إلى قائمة البيع المسبق',
  count: ({ count }) => `عدد الأصدقاء الذين اشتركوا وأكّدوا: ${count}`,
  rewardHeading: 'ما الذي تكسبه الدعوات',
  pageLink: 'صفحة دعواتك',
  makeLink: {
    title: 'رابط دعوتك',
    message: 'ليس لديك رابط دعوة بعد. اضغط على الزر لإنشائه.',
    button: 'أنشئ رابط دعوتي',
  },
  brokenLink: {
    title: 'هذا الرابط لا يعمل',
    message: 'الرابط غير مكتمل، أو أن صاحبه لم يعد في القائمة. استخدم الرابط الكامل من إحدى رسائلنا.',
  },
  notConfirmed: {
    title: 'أكّد اشتراكك أولًا',
    message: 'يُنشأ رابط دعوتك عندما تؤكّد بريدك الإلكتروني: استخدم الرابط في الرسالة التي أرسلناها إليك.',
  },
};
