import { ApiError } from '../../../api/errors';
import type {
  GrantType,
  OAuthClient,
  OAuthClientChange,
  OAuthClientInput,
} from '../../../api/oauthClients';

/** The client form's values: the redirect URIs as a text of one per line. */
export interface ClientValues {
  name: string;
  public: boolean;
  grant_types: GrantType[];
  redirect_uris: string;
  access_token_format: 'opaque' | 'jwt';
  token_rate_per_minute: number | null;
}

/** The form's start: a new confidential client using the authorization code, or the client's. */
export function valuesOf(client: OAuthClient | null): ClientValues {
  if (!client) {
    return {
      name: '',
      public: false,
      grant_types: ['authorization_code'],
      redirect_uris: '',
      access_token_format: 'opaque',
      token_rate_per_minute: 0,
    };
  }
  return {
    name: client.name,
    public: client.public,
    grant_types: client.grant_types as GrantType[],
    redirect_uris: client.redirect_uris.join('\n'),
    access_token_format: client.access_token_format,
    token_rate_per_minute: client.token_rate_per_minute,
  };
}

/** Each non-empty line of the redirect URIs, trimmed, with its line number (from 1). */
export function uriLines(text: string | undefined): { uri: string; line: number }[] {
  return (text ?? '').split(/\r?\n/).flatMap((raw, i) => {
    const uri = raw.trim();
    return uri ? [{ uri, line: i + 1 }] : [];
  });
}

function common(v: ClientValues) {
  return {
    name: v.name.trim(),
    redirect_uris: uriLines(v.redirect_uris).map((l) => l.uri),
    grant_types: v.grant_types,
    access_token_format: v.access_token_format,
    token_rate_per_minute: v.token_rate_per_minute ?? 0,
  };
}

export const createBody = (v: ClientValues): OAuthClientInput => ({
  ...common(v),
  public: v.public,
});

/** An edit sends everything but `public`, which cannot change. */
export const changeBody = (v: ClientValues): OAuthClientChange => common(v);

/**
 * The server names a bad redirect URI by its place in the list (`redirect_uris.2`); the form has
 * them as lines of one field: the problem goes on that field, saying which line it is.
 */
export function withUriLines(
  error: unknown,
  text: string | undefined,
  say: (line: number, message: string) => string,
): unknown {
  if (!(error instanceof ApiError) || error.fields.length === 0) return error;
  const lines = uriLines(text);
  const fields = error.fields.map((f) => {
    const match = /^redirect_uris\.(\d+)$/.exec(f.field);
    if (!match) return f;
    const line = lines[Number(match[1])]?.line ?? Number(match[1]) + 1;
    return { ...f, field: 'redirect_uris', message: say(line, f.message) };
  });
  const data = { ...(error.data as object), fields };
  return new ApiError(error.status, error.code, error.message, data);
}
