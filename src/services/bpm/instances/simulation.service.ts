import type { Principal } from '../../../platform/auth/principal.js';
import { AppError } from '../../../platform/http/errors.js';
import { createTenantDirectory } from '../../identity/assignee-directory.js';
import type { IdentityTables } from '../../identity/identity.tables.js';
import type { BpmDb } from '../bpm.tables.js';
import { findDefinition } from '../definitions/definitions.repo.js';
import { simulate } from '../engine/simulate.js';
import type { FlowNode, FormSchema } from '../engine/types.js';
import { formProblems } from './instances.service.js';

/** The explained dry run of a definition version: reads only, writes nothing. */
export class SimulationService {
  constructor(private readonly o: { db: BpmDb }) {}

  async simulate(
    principal: Principal,
    definitionId: number,
    input: { form: Record<string, unknown>; initiator_id?: number | undefined },
  ) {
    const definition = await findDefinition(this.o.db, principal.tenantId, definitionId);
    if (!definition) throw AppError.notFound('definition');
    const schema = definition.form_schema as FormSchema;
    const form = formProblems(schema, input.form);
    const directory = createTenantDirectory(
      this.o.db.withTables<IdentityTables>(),
      principal.tenantId,
    );
    const initiatorId = input.initiator_id ?? principal.userId;
    const profile = await directory.profile(initiatorId);
    if (!profile)
      throw AppError.validation([
        { field: 'initiator_id', rule: 'option', message: 'no such user in this tenant' },
      ]);
    return simulate(
      { tree: definition.node_tree as FlowNode, directory },
      {
        form,
        initiatorId,
        initiatorDeptId: profile.deptId,
        initiatorRoleIds: profile.roleIds,
        selectedAssignees: {},
      },
    );
  }
}
