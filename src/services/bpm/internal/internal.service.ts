import { AppError } from '../../../platform/errors.js';
import type { BpmDb } from '../bpm.tables.js';
import { findPublished } from '../definitions/definitions.repo.js';
import type { FormSchema } from '../engine/index.js';
import { toInstanceItem } from '../instances/instance-view.js';
import type { InstancesService } from '../instances/instances.service.js';
import { formProblems } from '../runtime/form-input.js';
import { newestByAnchor } from './internal.repo.js';
import type { InternalStartInput } from './internal.schema.js';

/** What business back ends do: start an instance for a record, find a record's instance. */
export class InternalService {
  constructor(private readonly o: { db: BpmDb; instances: InstancesService }) {}

  async start(body: InternalStartInput) {
    const definition = await findPublished(this.o.db, body.tenant_id, body.definition_key);
    if (!definition) throw AppError.notFound('published definition');
    if (definition.form_mode !== 'business' || !definition.biz_type) {
      throw AppError.conflict('flow-form definitions are started by users');
    }
    const form = formProblems(definition.form_schema as FormSchema, body.form ?? {});
    const started = await this.o.instances.startFrom(body.tenant_id, definition, {
      form,
      title: body.title ?? definition.name,
      bizType: definition.biz_type,
      bizId: body.biz_id,
      initiatorId: body.initiator_id,
      selectedAssignees: {},
      checkStarter: false,
    });
    return toInstanceItem(started.instance);
  }

  async byAnchor(bizType: string, bizId: string, tenantId: number | undefined) {
    const row = await newestByAnchor(this.o.db, bizType, bizId, tenantId);
    if (!row) throw AppError.notFound('instance');
    return toInstanceItem(row);
  }
}
