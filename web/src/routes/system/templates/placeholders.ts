/**
 * `{{name}}` placeholders of a notification template (spaces inside the braces allowed), as the
 * server reads them (src/services/system/templates/render.ts): a name the template does not
 * have is refused, so the editor says so before saving.
 */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** The names a text uses that are not among `allowed`, each once, in order. */
export function unknownPlaceholders(text: string, allowed: readonly string[]): string[] {
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!.trim());
  return [...new Set(names.filter((name) => !allowed.includes(name)))];
}

/** How a placeholder is written in a template. */
export const placeholderOf = (name: string) => `{{${name}}}`;
