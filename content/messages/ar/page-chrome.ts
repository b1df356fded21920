// The pages' fixed words in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { PageChromeMessages } from '../../../src/shared/messages/page-chrome.ts';

export const pageChromeMessages: PageChromeMessages = {
  privacyLink: 'إشعار الخصوصية',
  copyright: ({ year, site }) => `© ${year} ${site}`,
  opensInNewTab: '(يُفتح في علامة تبويب جديدة)',
  heroLine: ({ site, network }) => `${site} · عملة ميم على شبكة ${network}`,
  comingSoon: 'قريبًا',
  contractAddress: 'عنوان العقد الرسمي:',
  faqTitle: 'الأسئلة الشائعة',
  faqContractAddress: ({ address }) => [
    'عنوان العقد الرسمي هو ',
    { code: address },
    '. تحقّق منه هنا قبل أن ترسل أي شيء.',
  ],
  languages: 'اللغات',
  offer: 'اعرض هذه الصفحة بالعربية',
  offerDismiss: 'إغلاق',
  draftTranslation: 'هذه الترجمة مسودة لم يراجعها بعدُ متحدث أصلي باللغة. عند الشك، يُعتمد الإشعار باللغة الإنجليزية:',
  onNetwork: ({ network }) => `على شبكة ${network}`,
  homeLink: 'الانتقال إلى الصفحة الرئيسية',
  notFound: {
    title: 'الصفحة غير موجودة',
    message: 'لا يوجد شيء على هذا العنوان. الأيدي الماسية تصمد؛ أما هذا الرابط فلم يصمد.',
    description: 'لا يوجد شيء على هذا العنوان.',
  },
  titled: ({ title, site }) => `${title} · ${site}`,
  privacyDescription: ({ site }) => `ما الذي يجمعه موقع ${site}، ولماذا، وكيف تطلب محوه.`,
  terms: {
    link: 'شروط البيع المسبق',
    description: ({ site }: { site: string }): string =>
      `شروط قائمة السماح للبيع المسبق لـ ${site}، ومن يمكنه الانضمام إليها.`,
    version: ({ version }: { version: string }): string =>
      `الإصدار ${version}. الانضمام إلى قائمة السماح يعني قبول هذا الإصدار.`,
    excludedHeading: 'من لا يمكنه الانضمام',
    excluded: ({ countries }: { countries: string }): string =>
      `لا يمكن للمقيمين في ${countries} الانضمام إلى قائمة السماح.`,
    noneExcluded: 'لا توجد دولة مستبعدة، لكن لا يمكنك الانضمام إلا حيث تكون المشاركة مشروعة.',
    draft:
      'تُعرض الشروط بالإنجليزية: ترجمتها إلى العربية مسودة لم يراجعها بعدُ متحدث أصلي، والشروط الإنجليزية هي المعتمدة.',
  },
};
