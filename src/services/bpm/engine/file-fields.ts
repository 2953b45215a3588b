import { AppError, ERROR_CODES, type FieldProblem } from '../../../platform/errors.js';
import type { FileCatalog, FormData, FormField, FormSchema } from './types.js';

/** Whether `contentType` is one of `accept` (`type/subtype`, or `type/*` for the whole type). */
export function accepts(accept: readonly string[] | undefined, contentType: string): boolean {
  if (!accept) return true;
  const type = contentType.toLowerCase();
  return accept.some((a) => (a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : type === a));
}

/**
 * `file` fields hold ids of files uploaded to the files service. Every id a submission adds to a
 * field (one not already in `before`, the form as it stood) must be a file of the tenant that
 * the person submitting uploaded, of a type the field accepts: nobody attaches, and so gains a
 * link to, a file of someone else's. Only the keys in `keys` are checked (default: the whole
 * form); every problem is listed at once, on the field.
 */
export async function fileFieldProblems(
  catalog: FileCatalog,
  schema: FormSchema,
  form: FormData,
  options: { actorId: number; before?: FormData; keys?: Iterable<string> },
): Promise<FieldProblem[]> {
  const wanted = new Set(options.keys ?? Object.keys(form));
  const fields = schema.fields.filter((f) => f.type === 'file' && wanted.has(f.key));
  const added = new Map<string, number[]>();
  for (const f of fields) {
    const value = form[f.key];
    if (!Array.isArray(value)) continue;
    const kept = options.before?.[f.key];
    const old = new Set(Array.isArray(kept) ? kept : []);
    added.set(
      f.key,
      value.filter((id) => !old.has(id)),
    );
  }
  const ids = [...new Set([...added.values()].flat())];
  if (ids.length === 0) return [];
  const found = new Map((await catalog.files(ids)).map((file) => [file.id, file]));
  const whyNot = (f: FormField, id: number): string | null => {
    const file = found.get(id);
    if (!file || file.uploadedBy !== options.actorId) return `file ${id} is not one you uploaded`;
    if (!accepts(f.accept, file.contentType)) {
      return `file ${id} is ${file.contentType}, not one of ${f.accept!.join(', ')}`;
    }
    return null;
  };
  // One problem per field, its first file at fault.
  const problems: FieldProblem[] = [];
  for (const f of fields) {
    const message = (added.get(f.key) ?? []).map((id) => whyNot(f, id)).find((m) => m !== null);
    if (message) problems.push({ field: f.key, rule: 'option', message: `${f.label}: ${message}` });
  }
  return problems;
}

/** Throws 40002 listing the `file` fields among `keys` that add files the actor may not attach. */
export async function checkFileFields(
  catalog: FileCatalog,
  schema: FormSchema,
  form: FormData,
  options: { actorId: number; before?: FormData; keys?: Iterable<string> },
): Promise<void> {
  const problems = await fileFieldProblems(catalog, schema, form, options);
  if (problems.length > 0)
    throw new AppError(ERROR_CODES.FORM_INVALID, undefined, { fields: problems });
}
