import i18n from '../i18n';

/** One entry of `data.fields` in a validation error (docs/api.md). */
export interface FieldProblem {
  field: string;
  rule: string;
  message: string;
}

/** An answer in the error envelope: the code and message as the server sent them. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data: unknown,
    /** The message is an administrator's text for the code (`X-Error-Text: custom`). */
    readonly custom = false,
  ) {
    super(message);
  }

  get fields(): FieldProblem[] {
    const data = this.data as { fields?: unknown } | null;
    return Array.isArray(data?.fields) ? (data.fields as FieldProblem[]) : [];
  }
}

/** Whether an answer's message is an administrator's text for its code (docs/api.md). */
export const isCustomText = (header: (name: string) => string | null) =>
  header('x-error-text') === 'custom';

/**
 * Turns any failure into the text a person should read: an API error as its code's text in the
 * reader's language (the server's own message is lowercase English, for logs and scripts), a
 * code the console does not know as the server's message. A text an administrator set for the
 * code (the error-texts page) is shown as they wrote it, whatever the reader's language.
 */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.custom) return error.message;
    const key = `errorCode.${error.code}`;
    return i18n.exists(key) ? i18n.t(key) : error.message;
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return i18n.t('errorCode.network');
  if (error instanceof Error) return error.message;
  return String(error);
}
