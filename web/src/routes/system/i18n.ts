import en from './i18n.en';
import zhCN from './i18n.zh-CN';

/** The system pages' texts, namespace `system` (`useTranslation('system')`). */
const system = { en, 'zh-CN': zhCN };
export default system;
