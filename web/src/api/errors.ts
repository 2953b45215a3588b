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
  ) {
    super(message);
  }

  get fields(): FieldProblem[] {
    const data = this.data as { fields?: unknown } | null;
    return Array.isArray(data?.fields) ? (data.fields as FieldProblem[]) : [];
  }
}

/** Turns any failure into the text a person should read. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
