/**
 * `{{name}}` placeholders. The body between the braces holds no brace, so each match scans to
 * the next brace at most: linear in the text, whatever an editor types.
 */
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** The placeholder names a text uses (trimmed), in order, repeats included. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!.trim());
}

/**
 * Fills the placeholders; a missing value is empty. In an HTML template every value is
 * escaped, so a user-chosen instance title cannot inject markup into a mail.
 */
export function renderText(
  text: string,
  params: Readonly<Record<string, string | number>>,
  options: { html: boolean },
): string {
  return text.replace(PLACEHOLDER, (_match, raw: string) => {
    const value = params[raw.trim()];
    const shown = value === undefined ? '' : String(value);
    return options.html ? escapeHtml(shown) : shown;
  });
}
