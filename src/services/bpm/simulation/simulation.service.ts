import type { Principal } from '../../../platform/auth/principal.js';
import { absenceBook } from '../out-of-office/out-of-office.repo.js';
import { AppError, ERROR_CODES } from '../../../platform/errors.js';
import { mayStart } from '../definitions/definitions.service.js';
import type { DirectoryOf } from '../bpm.ports.js';
import type { BpmDb } from '../bpm.tables.js';
import { findDefinition } from '../definitions/definitions.repo.js';
import {
  simulate,
  validateFormSchema,
  validateTree,
  type FlowNode,
  type FormSchema,
} from '../engine/index.js';
import { formProblems } from '../runtime/form-input.js';
import type { PreviewInput, SimulateInput } from './simulation.schema.js';

/** The explained dry run of a definition version: reads only, writes nothing. */
export class SimulationService {
  constructor(private readonly o: { db: BpmDb; directoryOf: DirectoryOf }) {}

  /**
   * The route the caller's own request would take, for the start form: only a published version
   * they may start, only as themselves, so it needs no designer's code and shows nobody else's.
   */
  async preview(principal: Principal, definitionId: number, input: PreviewInput) {
    const definition = await findDefinition(this.o.db, principal.tenantId, definitionId);
    if (!definition || definition.status !== 'published') throw AppError.notFound('definition');
    const profile = await this.o.directoryOf(principal.tenantId).profile(principal.userId);
    if (!profile || !mayStart(definition.starters, profile)) {
      throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, 'you may not start this definition');
    }
    return this.simulate(principal, definitionId, { ...input, initiator_id: principal.userId });
  }

  async simulate(principal: Principal, definitionId: number, input: SimulateInput) {
    const definition = await findDefinition(this.o.db, principal.tenantId, definitionId);
    if (!definition) throw AppError.notFound('definition');
    // A draft may be malformed: validated as publish does, so the walk only sees sound trees.
    const schemaProblems = validateFormSchema(definition.form_schema);
    const problems =
      schemaProblems.length > 0
        ? schemaProblems
        : validateTree(definition.node_tree, definition.form_schema as FormSchema);
    if (problems.length > 0) throw AppError.validation(problems, 'the definition is not valid');
    const schema = definition.form_schema as FormSchema;
    const form = formProblems(schema, input.form);
    const directory = this.o.directoryOf(principal.tenantId);
    const initiatorId = input.initiator_id ?? principal.userId;
    const profile = await directory.profile(initiatorId);
    if (!profile)
      throw AppError.validation([
        { field: 'initiator_id', rule: 'option', message: 'no such user in this tenant' },
      ]);
    return simulate(
      {
        tree: definition.node_tree as FlowNode,
        directory,
        // Who is away now: their tasks would open for their stand-ins.
        absences: absenceBook(this.o.db, principal.tenantId, definition.key, Date.now()),
      },
      {
        form,
        initiatorId,
        initiatorDeptId: profile.deptId,
        initiatorRoleIds: profile.roleIds,
        selectedAssignees: input.selected_assignees ?? {},
      },
    );
  }
}
