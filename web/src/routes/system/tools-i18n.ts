import en from './tools-i18n.en';
import zhCN from './tools-i18n.zh-CN';

/** The files, OAuth2 clients and code generator pages' texts, namespace `systemTools`. */
const systemTools = { en, 'zh-CN': zhCN };
export default systemTools;
