import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en';
import shellEn from './shell.en';
import shellZhCN from './shell.zh-CN';
import zhCN from './zh-CN';
import { areaBackend } from './areas';

export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
const LANGUAGE_KEY = 'approva.language';

/**
 * The visitor's language: the one chosen before, else the browser's. login.html's script
 * (scripts/prerender.mjs) picks the prebuilt sign-in page by the same rule.
 */
function initialLanguage(): Language {
  // Building the sign-in page ahead (src/prerender.tsx): it sets each language itself.
  if (typeof window === 'undefined') return 'en';
  const saved = localStorage.getItem(LANGUAGE_KEY);
  if (saved === 'en' || saved === 'zh-CN') return saved;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

// The frame's texts come with the first page; each area's namespace loads with its pages.
void i18n
  .use(initReactI18next)
  .use(areaBackend)
  .init({
    resources: {
      en: { translation: { ...en, ...shellEn } },
      'zh-CN': { translation: { ...zhCN, ...shellZhCN } },
    },
    partialBundledLanguages: true,
    ns: ['translation'],
    lng: initialLanguage(),
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

/** Switches the language and remembers it for this browser. */
export function setLanguage(language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

export default i18n;
