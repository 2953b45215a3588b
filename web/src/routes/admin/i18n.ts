import en from './i18n.en';
import zhCN from './i18n.zh-CN';

/** The identity admin pages' texts, namespace `admin` (`useTranslation('admin')`). */
const admin = { en, 'zh-CN': zhCN };
export default admin;
