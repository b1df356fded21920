// The sign-up form's words and the server's answers, in Simplified Chinese: a draft, not yet
// reviewed by a native speaker (./meta.ts). Typed by the English file. "订阅" (subscribe) for
// signing up, since "注册" reads as opening an account.
import type { SignupAnswers, SignupMessages } from '../../../src/shared/messages/signup.ts';
// A field's words not yet translated are English's (content/messages/translations.test.ts lists them).
import { signupMessages as english } from '../en/signup.ts';

export const signupMessages: SignupMessages = {
  labels: { ...english.labels, name: '姓名', email: '电子邮箱', comment: '留言', website: '网站' },
  optional: '（选填）',
  consent:
    '订阅即表示您同意我们通过电子邮件向您发送 Diamond Hand (DH) 的相关信息：预售及项目动态。每封邮件都附有退订链接，可立即停止接收；详见我们的隐私声明。',
  privacyLink: '隐私声明',
  submit: '提交',
  sending: '正在提交…',
  invalid: '请更正标出的字段。',
  fieldErrors: {
    ...english.fieldErrors,
    'name.required': '请输入您的姓名。',
    'name.tooLong': ({ name }) => `姓名最多 ${name} 个字符。`,
    'name.lines': '请将姓名写在一行内。',
    'name.control': '您的姓名包含我们无法接受的字符（一个不可见的控制字符）。请重新输入。',
    'name.invisible': '您的姓名包含不可见的格式字符。请去掉这些字符后重新输入。',
    'name.url': '请只填写您的姓名，不要包含网址或链接。',
    'email.required': '请输入您的电子邮箱地址。',
    'email.localTooLong': ({ emailLocalPart }) => `@ 之前的部分最多 ${emailLocalPart} 个字符。`,
    'email.localAscii': "@ 之前的部分只能使用字母 a 到 z、数字，以及 . _ ' + - 这几个符号。",
    'email.tooLong': ({ email }) => `电子邮箱地址最多 ${email} 个字符。`,
    'email.invalid': '请输入有效的电子邮箱地址，例如 name@example.com。',
    'comment.notText': '留言必须是文本。',
    'comment.tooLong': ({ comment }) => `留言最多 ${comment.toLocaleString('zh-CN')} 个字符。`,
    'comment.control': '您的留言包含我们无法接受的字符（一个不可见的控制字符）。请将其删除。',
    unreadable: '此字段包含我们无法读取的字符。请重新输入。',
    invalid: '请检查此字段。',
  },
};

export const signupAnswers: SignupAnswers = {
  success: '谢谢！请查收我们发给您的邮件，并点击其中的链接确认订阅。',
  formErrors: {
    'form.unknownFields': ({ fields }): string => `此表单只接受以下字段：${fields}。`,
    'form.shape': ({ required }): string => `请至少提交以下字段：${required}。`,
  },
  oneMorePress: '就差一步：请再点一次“提交”，以确认您是真人。',
  tooMany: ({ seconds }) => `来自您所在网络的订阅请求过多。请在 ${seconds} 秒后重试。`,
  unreadable: '无法读取该表单。请重试。',
  tooLarge: '内容超出了此表单的上限（最多 16 KB）。请缩短您的留言。',
  wrongType: '请以普通网页表单或 JSON 格式提交表单。',
  notSaved: '我们这边出了问题，您的订阅未能保存。请过一分钟再试。',
  storeDown: ({ seconds }) => `我们的数据库暂时没有响应，您的订阅未能保存。请在 ${seconds} 秒后重试。`,
  restrictedCountry: ({ country }) =>
    `我们的服务器判断你的连接位于${country}，该国居民不能订阅此列表（见预售条款）。如果你居住在${country}，则不能订阅。如果你不在${country}，说明判断有误：它是根据你网络的地址推测的。请换一个网络连接后再试。你填写的内容没有被保存。`,
};
