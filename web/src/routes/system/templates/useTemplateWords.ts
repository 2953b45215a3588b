import { useTranslation } from 'react-i18next';
import type { Template } from '../../../api/systemAdmin';

/** How the pages name a template: what it is for, its language, both together. */
export function useTemplateWords() {
  const { t } = useTranslation('system');
  const lang = (code: string) => t(`templates.langs.${code}`, { defaultValue: code });
  return {
    /** What the template is for, in the reader's language (the server's English otherwise). */
    about: (e: Pick<Template, 'key' | 'description'>) =>
      t(`templates.about.${e.key.replace(/\./g, '_')}`, { defaultValue: e.description }),
    lang,
    name: (e: Pick<Template, 'key' | 'lang'>) =>
      t('templates.name', { key: e.key, lang: lang(e.lang) }),
  };
}
