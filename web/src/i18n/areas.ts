import type { BackendModule, ReadCallback } from 'i18next';

type Texts = { default: Record<string, unknown> };
type Loaders = Record<'en' | 'zh-CN', () => Promise<Texts>>;

/**
 * Each area's texts (an i18next namespace), loaded with the first page that asks for them
 * rather than with the sign-in page: `useTranslation('admin')` suspends until they are here.
 */
export const AREA_TEXTS: Record<string, Loaders> = {
  admin: {
    en: () => import('../routes/admin/i18n.en'),
    'zh-CN': () => import('../routes/admin/i18n.zh-CN'),
  },
  approvals: {
    en: () => import('../routes/approvals/i18n.en'),
    'zh-CN': () => import('../routes/approvals/i18n.zh-CN'),
  },
  audit: {
    en: () => import('../routes/audit/i18n.en'),
    'zh-CN': () => import('../routes/audit/i18n.zh-CN'),
  },
  monitor: {
    en: () => import('../routes/monitor/i18n.en'),
    'zh-CN': () => import('../routes/monitor/i18n.zh-CN'),
  },
  system: {
    en: () => import('../routes/system/i18n.en'),
    'zh-CN': () => import('../routes/system/i18n.zh-CN'),
  },
  systemTools: {
    en: () => import('../routes/system/tools-i18n.en'),
    'zh-CN': () => import('../routes/system/tools-i18n.zh-CN'),
  },
};

/** The i18next backend that reads an area's texts through its dynamic import. */
export const areaBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = AREA_TEXTS[namespace]?.[language as 'en' | 'zh-CN'];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (texts) => callback(null, texts.default as never),
      (err: unknown) => callback(err instanceof Error ? err.message : String(err), false),
    );
  },
};
