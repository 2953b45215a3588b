import en from './i18n.en';
import zhCN from './i18n.zh-CN';

/** The audit pages' texts, namespace `audit` (`useTranslation('audit')`). */
const audit = { en, 'zh-CN': zhCN };
export default audit;
