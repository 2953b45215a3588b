import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en';
import shellEn from './shell.en';
import shellZhCN from './shell.zh-CN';
import zhCN from './zh-CN';
import admin from '../routes/admin/i18n';
import audit from '../routes/audit/i18n';
import approvals from '../routes/approvals/i18n';
import monitor from '../routes/monitor/i18n';
import systemTools from '../routes/system/tools-i18n';
import system from '../routes/system/i18n';

export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'approva.language';

function initialLanguage(): Language {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  if (saved === 'en' || saved === 'zh-CN') return saved;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, ...shellEn } },
    'zh-CN': { translation: { ...zhCN, ...shellZhCN } },
  },
  lng: initialLanguage(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'admin', admin[lng]);
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'audit', audit[lng]);
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'approvals', approvals[lng]);
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'monitor', monitor[lng]);
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'systemTools', systemTools[lng]);
for (const lng of LANGUAGES) i18n.addResourceBundle(lng, 'system', system[lng]);
document.documentElement.lang = i18n.language;

/** Switches the language and remembers it for this browser. */
export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

export default i18n;
