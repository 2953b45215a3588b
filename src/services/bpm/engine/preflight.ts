import { AppError, ERROR_CODES, type FieldProblem } from '../../../platform/errors.js';
import type { StartInit } from './advance.js';
import { directoryFieldProblems } from './directory-fields.js';
import { fileFieldProblems } from './file-fields.js';
import { simulate } from './simulate.js';
import { allNodes, findNode } from './tree.js';
import type { EngineContext, FormData } from './types.js';

/**
 * Pre-flight at submission (BPM.md): a start or a resubmit first runs the route on the submitted
 * data, and what the submitter can correct is refused before anything is created: a condition
 * that fails on a form field, a person or department field naming nobody of the directory, a
 * `form_user` step whose field is empty or names the initiator, a `dept_leader` step reading an
 * empty or unknown department from the form, an `initiator_selected` step without a usable selection, and a selection for a step
 * that selects nobody. What they cannot correct (an empty role, a department without a leader,
 * the initiator's own department) is left to the running instance's empty-assignee strategy.
 *
 * Answers null when the submission may go ahead, else the error to throw: 40002 when any problem
 * is on a form field (the person fixes the form), 40001 otherwise; every problem found at once.
 */
export async function preflight(
  ctx: Pick<EngineContext, 'tree' | 'schema' | 'directory' | 'files'>,
  init: StartInit,
  /** A resubmit's form as it stood: the files already in it need not be the initiator's. */
  before?: FormData,
): Promise<AppError | null> {
  const form: FieldProblem[] = [];
  const selection: FieldProblem[] = [];
  const labelOf = (key: string) => ctx.schema.fields.find((f) => f.key === key)?.label ?? key;

  const selectable = new Set(
    allNodes(ctx.tree)
      .filter((n) => n.type === 'approval' && n.assignee.type === 'initiator_selected')
      .map((n) => n.id),
  );
  for (const key of Object.keys(init.selectedAssignees)) {
    if (!selectable.has(key)) {
      selection.push({
        field: `selected_assignees.${key}`,
        rule: 'option',
        message: `"${key}" is no step whose approvers the initiator selects`,
      });
    }
  }

  // Every person and department the form names exists (whether or not the route reads it).
  form.push(...(await directoryFieldProblems(ctx.directory, ctx.schema, init.form)));
  // Every file it adds is one the initiator uploaded, of an accepted type.
  form.push(
    ...(await fileFieldProblems(ctx.files, ctx.schema, init.form, {
      actorId: init.initiatorId,
      ...(before ? { before } : {}),
    })),
  );
  const reported = (field: string) => form.some((p) => p.field === field);

  const route = await simulate(ctx, init, { pastEmpty: true });
  for (const simulated of route.nodes) {
    const node = findNode(ctx.tree, simulated.node_id);
    if (node?.type !== 'approval') continue;
    const rule = node.assignee;
    if (rule.type === 'initiator_selected') {
      const field = `selected_assignees.${node.id}`;
      const chosen = init.selectedAssignees[node.id] ?? [];
      if (chosen.length === 0) {
        selection.push({ field, rule: 'required', message: `choose who approves "${node.name}"` });
      }
      for (const { userId, reason } of simulated.resolution.dropped) {
        const message =
          reason === 'initiator'
            ? `you cannot approve your own request at "${node.name}"`
            : `user ${userId} is not an active user of the tenant`;
        selection.push({ field, rule: 'option', message });
      }
    } else if (rule.type === 'form_user') {
      if (typeof init.form[rule.field] !== 'number' && !reported(rule.field)) {
        form.push({
          field: rule.field,
          rule: 'required',
          message: `${labelOf(rule.field)} is needed: that person approves "${node.name}"`,
        });
      } else if (simulated.resolution.dropped.some((d) => d.reason === 'initiator')) {
        form.push({
          field: rule.field,
          rule: 'option',
          message: `${labelOf(rule.field)}: you cannot approve your own request at "${node.name}"`,
        });
      }
    } else if (rule.type === 'dept_leader' && rule.source === 'form_field') {
      const value = init.form[rule.field];
      if (reported(rule.field)) continue;
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        form.push({
          field: rule.field,
          rule: 'required',
          message: `${labelOf(rule.field)} is needed to find the approver of "${node.name}"`,
        });
      } else if ((await ctx.directory.parentOf(value)) === undefined) {
        form.push({
          field: rule.field,
          rule: 'option',
          message: `${labelOf(rule.field)}: department ${value} does not exist`,
        });
      }
    }
  }
  for (const failure of route.failures) {
    const field = failure.field;
    if (failure.code !== 'condition_failed' || !field || field.startsWith('initiator.')) continue;
    const missing = init.form[field] === undefined || init.form[field] === null;
    form.push({
      field,
      rule: missing ? 'required' : 'type',
      message: `${labelOf(field)} is needed to decide the route (${failure.detail})`,
    });
  }

  if (form.length > 0) {
    return new AppError(ERROR_CODES.FORM_INVALID, 'the route cannot be decided on this form', {
      fields: [...form, ...selection],
    });
  }
  if (selection.length > 0) return AppError.validation(selection, 'the approvers are not chosen');
  return null;
}
