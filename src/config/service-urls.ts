import { url } from './env-fields.js';

/** `<NAME>_SERVICE_URL`: where a lone gateway finds the service `name` (src/start.ts lists them). */
const SERVICE_URL_KEY = /^([A-Z][A-Z0-9]*)_SERVICE_URL$/;

/** Every `<NAME>_SERVICE_URL` that is set, by lower-case service name, and the malformed ones. */
export function serviceUrlsOf(source: NodeJS.ProcessEnv) {
  const urls: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(source)) {
    const name = SERVICE_URL_KEY.exec(key)?.[1];
    if (!name) continue;
    const parsed = url.safeParse(value);
    if (!parsed.success) problems.push(`${key}: ${parsed.error.issues[0]!.message}`);
    else if (parsed.data !== undefined) urls[name.toLowerCase()] = parsed.data;
  }
  return { urls, problems };
}
