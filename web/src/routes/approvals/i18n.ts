import en from './i18n.en';
import zhCN from './i18n.zh-CN';

/** The approvals admin and analytics pages' texts, namespace `approvals`. */
const approvals = { en, 'zh-CN': zhCN };
export default approvals;
