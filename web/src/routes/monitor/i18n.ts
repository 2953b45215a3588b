import en from './i18n.en';
import zhCN from './i18n.zh-CN';

/** The monitor page's texts, namespace `monitor` (`useTranslation('monitor')`). */
const monitor = { en, 'zh-CN': zhCN };
export default monitor;
