/**
 * The code generator (platform administrators with `system:codegen:preview`): whether this
 * server writes modules and where, the preview of a table description's files, and the write
 * (only where the server has it on, with `system:codegen:write`).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from './client';
import type { Body, Ok } from './schemaTypes';
import type { operations } from './schema';

/** A table description: service, entity, plural and its columns. */
export type ModuleSpec = Body<operations['postCodegenPreview']>;
export type ColumnSpec = ModuleSpec['columns'][number];
export type ColumnType = ColumnSpec['type'];
export type GeneratedFile = Ok<operations['postCodegenPreview']>['files'][number];
export type CodegenStatus = Ok<operations['getCodegenStatus']>;
export type WriteResult = Ok<operations['postCodegenWrite']>;

export function useCodegenStatus() {
  return useQuery({
    queryKey: ['codegen', 'status'],
    queryFn: () => data(api.GET('/api/v1/codegen/status')),
    staleTime: 5 * 60_000,
  });
}

/** The files a description would make, written nowhere. */
export function usePreviewModule() {
  return useMutation({
    mutationFn: (body: ModuleSpec) => data(api.POST('/api/v1/codegen/preview', { body })),
  });
}

/** Writes the module into the server's project; 409 when its folder or table exists. */
export function useWriteModule() {
  return useMutation({
    mutationFn: (body: ModuleSpec) => data(api.POST('/api/v1/codegen/write', { body })),
  });
}
