import i18n, { LANGUAGES } from '../i18n';
import { AREA_TEXTS } from '../i18n/areas';

// Component tests render area components directly, outside any Suspense boundary: their texts,
// in both languages, are loaded before the tests start, as a page's are before it renders.
await i18n.loadNamespaces(Object.keys(AREA_TEXTS));
await i18n.loadLanguages([...LANGUAGES]);
