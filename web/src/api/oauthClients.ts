/**
 * The OAuth2 client registry (platform administrators only) as TanStack Query hooks over the
 * generated client. A client's secret is in the answer of a create or a rotation only: those
 * answers never enter the query cache (the list is read again instead), and their mutations are
 * forgotten as soon as nothing watches them, so the secret lives only as long as the dialog that
 * shows it.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from './client';
import type { Body, Ok, Query } from './schemaTypes';
import type { operations } from './schema';

export type OAuthClient = Ok<operations['getOauth2ClientsById']>;
export type OAuthClientQuery = Query<operations['getOauth2Clients']>;
export type OAuthClientInput = Body<operations['postOauth2Clients']>;
export type OAuthClientChange = Body<operations['putOauth2ClientsById']>;
/** A create's or a rotation's answer: the client and its new secret (null for a public one). */
export type OAuthClientWithSecret = Ok<operations['postOauth2ClientsByIdSecret']>;
export type GrantType = OAuthClientInput['grant_types'][number];

export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
];

export const oauthClientKeys = {
  all: ['oauth-clients'] as const,
  list: (query: OAuthClientQuery) => ['oauth-clients', 'list', query] as const,
};

const path = (clientId: string) => ({ params: { path: { id: clientId } } });

export function useOAuthClients(query: OAuthClientQuery) {
  return useQuery({
    queryKey: oauthClientKeys.list(query),
    queryFn: () => data(api.GET('/api/v1/oauth2/clients', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * A change to the registry that refreshes the list. `gcTime: 0`: a finished mutation (with a
 * secret in its result) is dropped from the mutation cache once its component is gone.
 */
function useClientMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    gcTime: 0,
    onSuccess: () => client.invalidateQueries({ queryKey: oauthClientKeys.all }),
  });
}

export function useCreateOAuthClient() {
  return useClientMutation((body: OAuthClientInput) =>
    data(api.POST('/api/v1/oauth2/clients', { body })),
  );
}

export function useUpdateOAuthClient() {
  return useClientMutation((v: { clientId: string; body: OAuthClientChange }) =>
    data(api.PUT('/api/v1/oauth2/clients/{id}', { ...path(v.clientId), body: v.body })),
  );
}

/** A new secret: the old one stops working at once. */
export function useRotateOAuthSecret() {
  return useClientMutation((clientId: string) =>
    data(api.POST('/api/v1/oauth2/clients/{id}/secret', path(clientId))),
  );
}

/** Deletes a client and every token issued to it. */
export function useDeleteOAuthClient() {
  return useClientMutation(async (clientId: string) => {
    await api.DELETE('/api/v1/oauth2/clients/{id}', path(clientId));
  });
}
