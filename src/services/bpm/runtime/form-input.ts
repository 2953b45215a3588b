import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { validateForm, type FormData, type FormSchema } from '../engine/index.js';

/** A client's whole form checked against the schema: the stored snapshot, or 40002 listing every problem. */
export function formProblems(schema: FormSchema, input: unknown): FormData {
  const checked = validateForm(schema, input);
  if (!checked.ok)
    throw new AppError(ERROR_CODES.FORM_INVALID, undefined, { fields: checked.problems });
  return checked.form;
}
