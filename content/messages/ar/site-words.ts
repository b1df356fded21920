// The content file's (content/site-content.ts) words in Arabic: a draft by the team, not yet reviewed by a native speaker
// (./meta.ts says the same for the message files).
import type { ContentWords } from '../../../src/shared/content-schema.ts';

export const siteWords: ContentWords = {
  description: 'Diamond Hand (DH) عملة ميم مجتمعية على شبكة إيثريوم لمن لا يبيعون في لحظة ذعر. البيع المسبق قريبًا.',
  heroTagline: 'احتضن الفوضى واثبت على موقفك – Diamond Hand للمحتفظين الحقيقيين!',
  bannerHeadline: 'استعدّ لأقوى بيع مسبق للعملات المشفّرة في عام',
  stayUpdated: {
    heading: 'ابقَ على اطّلاع',
    intro: 'انضم إلى قائمتنا البريدية لتكون أول من يعرف بالمزايا والمكافآت الحصرية...',
  },
  closingLine: 'Diamond Hand للمحتفظين الحقيقيين',
  referrals: {
    reward:
      'يحصل أصحاب أكثر 100 دعوة مؤكَّدة على مكان مضمون في القائمة المسموح بها، يراجعه فريقنا قبل منحه. لا تجلب الدعوات رموزًا ولا مالًا.',
  },
  riskNotice: 'الأصول المشفّرة شديدة التقلّب. لا شيء في هذا الموقع نصيحة مالية.',
  faq: [
    {
      question: 'ما هي Diamond Hand (DH)؟',
      answer: 'عملة ميم مجتمعية لمن لا يبيعون في لحظة ذعر: «الأيدي الماسية» في عالم العملات المشفّرة.',
    },
    { question: 'على أي شبكة تعمل DH؟', answer: 'على إيثريوم.' },
    {
      question: 'متى يبدأ البيع المسبق؟',
      answer: 'قريبًا. تابع قناتينا على تيليجرام وتويتر، أو انضم إلى القائمة البريدية أدناه، لتعرف لحظة افتتاحه.',
    },
    {
      question: 'ما هو عنوان العقد الذكي؟',
      answer: 'سيُعلن عنه قريبًا، على هذا الموقع وقنواتنا الرسمية فقط. لا تثق أبدًا بعنوان يُرسل إليك في رسالة خاصة.',
    },
    {
      question: 'ما الذي يميّز DH؟',
      answer: 'الثبات وسط التقلّبات، ومجتمع من المؤمنين بالمدى الطويل.',
    },
  ],
};
