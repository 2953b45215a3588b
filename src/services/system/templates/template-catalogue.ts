/** The languages every template has a text in. */
export const TEMPLATE_LANGS = ['zh-CN', 'en-US'] as const;
export type TemplateLang = (typeof TEMPLATE_LANGS)[number];

export interface TemplateText {
  /** A notice's title, a mail's subject. */
  title: string;
  body: string;
}

export interface TemplateSpec {
  key: string;
  description: string;
  /** The `{{name}}`s the sender fills in; any other is refused on edit. */
  placeholders: readonly string[];
  /** An HTML mail: placeholder values are HTML-escaped. Every template is plain text today. */
  html: boolean;
  defaults: Record<TemplateLang, TemplateText>;
}

const bpm = (
  kind: string,
  description: string,
  en: TemplateText,
  zh: TemplateText,
): TemplateSpec => ({
  key: `bpm.${kind}`,
  description,
  placeholders: ['instance_title', 'instance_id'],
  html: false,
  defaults: { 'en-US': en, 'zh-CN': zh },
});

/** Every template the platform sends, with the texts shipped in code (the defaults). */
export const TEMPLATES: readonly TemplateSpec[] = [
  bpm(
    'todo',
    'BPM: a task waits for the user',
    { title: 'Approval needed', body: '"{{instance_title}}" is waiting for your approval.' },
    { title: '待审批', body: '“{{instance_title}}”正在等待您审批。' },
  ),
  bpm(
    'cc',
    'BPM: the user was copied on a request',
    { title: 'For your information', body: 'You were copied on "{{instance_title}}".' },
    { title: '抄送通知', body: '您收到了“{{instance_title}}”的抄送。' },
  ),
  bpm(
    'timeout',
    'BPM: a task waited past its deadline',
    { title: 'Approval overdue', body: '"{{instance_title}}" has waited past its deadline.' },
    { title: '审批超时', body: '“{{instance_title}}”已超过处理时限。' },
  ),
  bpm(
    'terminal',
    'BPM: a request the user started has finished',
    { title: 'Approval finished', body: '"{{instance_title}}" has finished.' },
    { title: '审批结束', body: '“{{instance_title}}”已结束。' },
  ),
  bpm(
    'urge',
    'BPM: the initiator asks the approvers for a decision',
    { title: 'Reminder', body: 'The initiator of "{{instance_title}}" asks for your decision.' },
    { title: '催办提醒', body: '“{{instance_title}}”的发起人催促您尽快处理。' },
  ),
  {
    key: 'auth.password_reset',
    description: 'Mail: the password reset link (the title is the subject)',
    placeholders: ['username', 'link'],
    html: false,
    defaults: {
      'en-US': {
        title: 'Reset your Approva password',
        body:
          'Hello {{username}},\n\nsomeone asked to reset your Approva password. To choose a new one, open\n\n' +
          '{{link}}\n\nThe link works once, within 30 minutes. If it was not you, ignore this mail.\n',
      },
      'zh-CN': {
        title: '重置您的 Approva 密码',
        body:
          '{{username}}，您好：\n\n有人请求重置您的 Approva 密码。如需设置新密码，请打开\n\n' +
          '{{link}}\n\n该链接仅可使用一次，30 分钟内有效。如果不是您本人操作，请忽略此邮件。\n',
      },
    },
  },
  {
    key: 'security.new_device',
    description: 'Notice: a sign-in from a device the user had not used before',
    placeholders: ['device', 'ip'],
    html: false,
    defaults: {
      'en-US': {
        title: 'New sign-in to your account',
        body:
          'Your account was signed in from a new device: {{device}}, address {{ip}}. If this ' +
          'was not you, change your password and sign that session out.',
      },
      'zh-CN': {
        title: '账号在新设备登录',
        body: '您的账号在新设备上登录：{{device}}，地址 {{ip}}。如果不是您本人操作，请修改密码并注销该会话。',
      },
    },
  },
];

export const templateSpec = (key: string) => TEMPLATES.find((t) => t.key === key);
