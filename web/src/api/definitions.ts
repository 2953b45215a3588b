/**
 * Writing flow definitions (the designer) and starting requests from them (the start form):
 * the calls behind those pages' mutations.
 */
import type { Definition, FormSchema, FlowNode, SimulateResult } from './bpm';
import { api, data } from './client';

export interface DefinitionDraft {
  name: string;
  category: string | null;
  form_schema: FormSchema;
  node_tree: FlowNode;
  starters: { user_ids?: number[]; role_ids?: number[]; dept_ids?: number[] };
}

export function saveDefinition(id: number, draft: DefinitionDraft) {
  return data(
    api.PUT('/api/v1/bpm/definitions/{id}', {
      params: { path: { id } },
      body: {
        ...draft,
        form_schema: draft.form_schema as never,
        node_tree: draft.node_tree as never,
      },
    }),
  );
}

export function publishDefinition(id: number) {
  return data(api.POST('/api/v1/bpm/definitions/{id}/publish', { params: { path: { id } } }));
}

export function newDefinitionVersion(id: number): Promise<Definition> {
  return data(
    api.POST('/api/v1/bpm/definitions/{id}/new-version', { params: { path: { id } } }),
  ) as Promise<Definition>;
}

/** The designer's dry run: the route as `initiator_id` (else the designer) would meet it. */
export function simulateDefinition(
  id: number,
  body: { form: Record<string, unknown>; initiator_id?: number },
): Promise<SimulateResult> {
  return data(
    api.POST('/api/v1/bpm/definitions/{id}/simulate', { params: { path: { id } }, body }),
  ) as Promise<SimulateResult>;
}

export interface StartBody {
  form: Record<string, unknown>;
  selected_assignees: Record<string, number[]>;
  title?: string;
}

/** The starter's own preview of a published version: no designer's code, always as the caller. */
export function previewStart(id: number, body: StartBody): Promise<SimulateResult> {
  return data(
    api.POST('/api/v1/bpm/definitions/{id}/preview', {
      params: { path: { id } },
      body: { form: body.form, selected_assignees: body.selected_assignees },
    }),
  ) as Promise<SimulateResult>;
}

/** Starts a request; `headers` carries the start's Idempotency-Key. */
export function startRequest(
  definitionId: number,
  body: StartBody,
  headers: Record<string, string>,
): Promise<{ id: number }> {
  return data(
    api.POST('/api/v1/bpm/instances', {
      body: {
        definition_id: definitionId,
        form: body.form,
        ...(body.title ? { title: body.title } : {}),
        ...(Object.keys(body.selected_assignees).length
          ? { selected_assignees: body.selected_assignees }
          : {}),
      },
      headers,
    }),
  ) as Promise<{ id: number }>;
}
