// The confirmation email in Arabic: a draft, not yet reviewed by a native speaker (./meta.ts).
// Typed by the English file.
import type { ConfirmationEmailMessages } from '../../../src/shared/messages/emails.ts';

export const confirmationEmailMessages: ConfirmationEmailMessages = {
  subject: ({ site }) => `أكّد اشتراكك في ${site}`,
  hello: 'مرحبًا،',
  thanks: ({ site }) => `شكرًا لانضمامك إلى قائمة ${site}. يُرجى تأكيد عنوان بريدك الإلكتروني:`,
  openAndPress: 'افتح هذا الرابط واضغط على الزر في الصفحة:',
  button: 'تأكيد اشتراكي',
  pasteLink: 'أو الصق هذا الرابط في متصفحك:',
  validity: 'يعمل الرابط مرة واحدة فقط، ولمدة 7 أيام. إن لم تكن قد اشتركت، فتجاهل هذه الرسالة: لن تسمع منا مرة أخرى.',
  stop: ({ name }) => `إيقاف جميع الرسائل من ${name}`,
};
