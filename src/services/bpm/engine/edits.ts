import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { validateForm } from './form.js';
import type { ApprovalNode, FieldChange, FormData, FormSchema, FormValue } from './types.js';

/**
 * An approver's form edits: only the fields the node lists in `editableFields` (default none)
 * may be sent (40301 naming every other one), and only what was sent is validated (40002), so
 * stored values (amounts in cents) are never read back as if a client had typed them.
 * Answers the merged form and the fields whose value changed, in schema order.
 */
export function applyEdits(
  schema: FormSchema,
  node: ApprovalNode,
  form: FormData,
  sent: Record<string, unknown>,
): { form: FormData; changes: FieldChange[] } {
  const editable = new Set(node.editableFields ?? []);
  const refused = Object.keys(sent).filter((key) => !editable.has(key));
  if (refused.length > 0) {
    throw new AppError(
      ERROR_CODES.ACTION_NOT_ALLOWED,
      `not editable on this node: ${refused.join(', ')}`,
      {
        fields: refused.map((key) => ({
          field: `form.${key}`,
          rule: 'option',
          message: `${key} is not editable on node ${node.id}`,
        })),
      },
    );
  }
  return patchForm(schema, form, sent);
}

/**
 * Merges the sent fields into the form: only they are validated (40002), as a client types them
 * (amounts in yuan); a field set to null is removed. Answers the merged form and the fields whose
 * value changed, in schema order. The caller decides which keys may be sent.
 */
export function patchForm(
  schema: FormSchema,
  form: FormData,
  sent: Record<string, unknown>,
): { form: FormData; changes: FieldChange[] } {
  const fields = schema.fields.filter((f) => Object.hasOwn(sent, f.key));
  const checked = validateForm({ fields }, sent);
  if (!checked.ok)
    throw new AppError(ERROR_CODES.FORM_INVALID, undefined, { fields: checked.problems });
  const merged: FormData = { ...form };
  const changes: FieldChange[] = [];
  for (const { key } of fields) {
    const before = Object.hasOwn(form, key) ? (form[key] ?? null) : null;
    const after = Object.hasOwn(checked.form, key) ? (checked.form[key] ?? null) : null;
    if (after === null) delete merged[key];
    else merged[key] = after;
    if (!sameValue(before, after)) changes.push({ field: key, before, after });
  }
  return { form: merged, changes };
}

/** Form values compare by value: a `file` field's ids as a list, in order. */
function sameValue(a: FormValue, b: FormValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((id, i) => id === b[i]);
  }
  return a === b;
}
