import { AppError, ERROR_CODES, type FieldProblem } from '../../../platform/errors.js';
import type { AssigneeDirectory, FormData, FormSchema } from './types.js';

/**
 * `user` and `dept` fields hold ids of the tenant's directory: a person must be an active user
 * of the tenant, a department one of its departments. Only the keys in `keys` are checked (an
 * approver's edit or a repair checks what it changes; a start checks everything), and every
 * problem is listed at once, on the field.
 */
export async function directoryFieldProblems(
  directory: AssigneeDirectory,
  schema: FormSchema,
  form: FormData,
  keys: Iterable<string> = Object.keys(form),
): Promise<FieldProblem[]> {
  const wanted = new Set(keys);
  const fields = schema.fields.filter(
    (f) => (f.type === 'user' || f.type === 'dept') && wanted.has(f.key),
  );
  const idsOf = (type: 'user' | 'dept') =>
    fields
      .filter((f) => f.type === type && typeof form[f.key] === 'number')
      .map((f) => form[f.key] as number);
  const userIds = idsOf('user');
  const deptIds = idsOf('dept');
  const active = new Set(
    (userIds.length > 0 ? await directory.users(userIds) : [])
      .filter((u) => u.active)
      .map((u) => u.id),
  );
  const depts = new Set(deptIds.length > 0 ? await directory.departments(deptIds) : []);
  const problems: FieldProblem[] = [];
  for (const f of fields) {
    const id = form[f.key];
    if (typeof id !== 'number') continue;
    if (f.type === 'user' && !active.has(id))
      problems.push({
        field: f.key,
        rule: 'option',
        message: `${f.label}: user ${id} is not an active user`,
      });
    if (f.type === 'dept' && !depts.has(id))
      problems.push({
        field: f.key,
        rule: 'option',
        message: `${f.label}: department ${id} does not exist`,
      });
  }
  return problems;
}

/** Throws 40002 listing the `user`/`dept` fields among `keys` that name nobody in the directory. */
export async function checkDirectoryFields(
  directory: AssigneeDirectory,
  schema: FormSchema,
  form: FormData,
  keys?: Iterable<string>,
): Promise<void> {
  const problems = await directoryFieldProblems(directory, schema, form, keys);
  if (problems.length > 0)
    throw new AppError(ERROR_CODES.FORM_INVALID, undefined, { fields: problems });
}
