// The sign-up form's words and the server's answers, in Arabic: a draft, not yet reviewed by a
// native speaker (./meta.ts). Typed by the English file. "يُرجى" + a verbal noun where English
// says "please", which also spares the reader a gendered imperative; numerals stay Western, as
// the rest of the page writes them.
import type { SignupAnswers, SignupMessages } from '../../../src/shared/messages/signup.ts';
// A field's words not yet translated are English's (content/messages/translations.test.ts lists them).
import { signupMessages as english } from '../en/signup.ts';
import { counted, secondsAfter, type ArabicForms } from './plural.ts';

/** Characters after "على" ("لا يمكن أن يزيد … على 64 حرفًا"). */
const characters: ArabicForms = { one: 'حرف واحد', two: 'حرفين', few: 'أحرف', many: 'حرفًا', other: 'حرف' };

export const signupMessages: SignupMessages = {
  labels: {
    ...english.labels,
    name: 'الاسم',
    email: 'البريد الإلكتروني',
    comment: 'تعليق',
    website: 'الموقع الإلكتروني',
  },
  optional: '(اختياري)',
  consent:
    'بالاشتراك، توافق على أن نراسلك عبر البريد الإلكتروني بشأن Diamond Hand (DH): البيع المسبق وأخبار المشروع. تحتوي كل رسالة على رابط لإيقاف الرسائل فورًا؛ راجع إشعار الخصوصية.',
  privacyLink: 'إشعار الخصوصية',
  submit: 'إرسال',
  sending: 'جارٍ الإرسال…',
  invalid: 'يُرجى تصحيح الحقول المحدّدة.',
  fieldErrors: {
    ...english.fieldErrors,
    'name.required': 'يُرجى إدخال اسمك.',
    'name.tooLong': ({ name }) => `لا يمكن أن يزيد اسمك على ${counted(name, characters)}.`,
    'name.lines': 'يُرجى كتابة اسمك في سطر واحد.',
    'name.control': 'يحتوي اسمك على حرف لا يمكننا قبوله (حرف تحكّم غير مرئي). يُرجى كتابته من جديد.',
    'name.invisible': 'يحتوي اسمك على أحرف تنسيق غير مرئية. يُرجى كتابته من جديد من دونها.',
    'name.url': 'يُرجى إدخال اسمك فقط، من دون عناوين ويب أو روابط.',
    'email.required': 'يُرجى إدخال عنوان بريدك الإلكتروني.',
    'email.localTooLong': ({ emailLocalPart }) =>
      `لا يمكن أن يزيد الجزء الذي يسبق @ على ${counted(emailLocalPart, characters)}.`,
    'email.localAscii': "يقتصر الجزء الذي يسبق @ على الأحرف من a إلى z والأرقام والرموز التالية: . _ ' + -",
    'email.tooLong': ({ email }) => `لا يمكن أن يزيد عنوان البريد الإلكتروني على ${counted(email, characters)}.`,
    'email.invalid': 'يُرجى إدخال عنوان بريد إلكتروني صالح، مثل name@example.com.',
    'comment.notText': 'يجب أن يكون تعليقك نصًّا.',
    'comment.tooLong': ({ comment }) =>
      `لا يمكن أن يزيد تعليقك على ${counted(comment, characters, comment.toLocaleString('ar-u-nu-latn'))}.`,
    'comment.control': 'يحتوي تعليقك على حرف لا يمكننا قبوله (حرف تحكّم غير مرئي). يُرجى حذفه.',
    unreadable: 'يحتوي هذا الحقل على حرف لا يمكننا قراءته. يُرجى كتابته من جديد.',
    invalid: 'يُرجى التحقق من هذا الحقل.',
  },
};

export const signupAnswers: SignupAnswers = {
  success: 'شكرًا لك! تفقّد بريدك الوارد بحثًا عن رسالة منّا، واضغط على الرابط الذي فيها لتأكيد اشتراكك.',
  formErrors: {
    'form.unknownFields': ({ fields }): string => `لا يقبل هذا النموذج إلا هذه الحقول: ${fields}.`,
    'form.shape': ({ required }): string => `يُرجى إرسال هذه الحقول على الأقل: ${required}.`,
  },
  oneMorePress: 'اقتربت: يُرجى الضغط على «إرسال» مرة أخرى لتأكيد أنك إنسان.',
  tooMany: ({ seconds }) =>
    `وصلتنا اشتراكات كثيرة جدًا من شبكتك. يُرجى المحاولة مرة أخرى بعد ${counted(seconds, secondsAfter)}.`,
  unreadable: 'تعذّرت علينا قراءة هذا النموذج. يُرجى المحاولة مرة أخرى.',
  tooLarge: 'تجاوز ما أرسلته الحدَّ الذي يقبله هذا النموذج (16 KB كحد أقصى). يُرجى اختصار تعليقك.',
  wrongType: 'يُرجى إرسال النموذج كنموذج ويب عادي أو بصيغة JSON.',
  notSaved: 'حدث خطأ من جهتنا ولم يُحفظ اشتراكك. يُرجى المحاولة مرة أخرى بعد دقيقة.',
  storeDown: ({ seconds }) =>
    `قاعدة بياناتنا لا تستجيب حاليًا، لذا تعذّر حفظ اشتراكك. يُرجى المحاولة مرة أخرى بعد ${counted(seconds, secondsAfter)}.`,
  restrictedCountry: ({ country }) =>
    `يحدد خادمنا موقع اتصالك في ${country}، ولا يمكن للمقيمين فيها الاشتراك في هذه القائمة (راجع شروط البيع المسبق). إذا كنت تقيم في ${country} فلا يمكنك الاشتراك. وإذا لم تكن في ${country} فالتحديد خاطئ: فهو تخمين من عنوان شبكتك. يُرجى المحاولة مجددًا من اتصال آخر. لم نحتفظ بأي شيء مما كتبته.`,
};
