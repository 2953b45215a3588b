import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { api, data } from '../api/client';
import { readTokens, saveTokens, type Tokens } from '../api/session';

export interface Me {
  id: number;
  username: string;
  nickname: string;
  tenant_id: number;
  dept_id: number | null;
  roles: unknown[];
  permissions: string[];
  is_platform_admin: boolean;
  must_change_password: boolean;
}

interface AuthValue {
  me: Me | null;
  loading: boolean;
  /** Whether the caller holds a permission code (`*` and `prefix:*` grants included). */
  can(code: string): boolean;
  signIn(tokens: Tokens): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

/** The server's grant rules: `*`, an exact code, or a `prefix:*` covering it. */
export function grants(permissions: readonly string[], code: string): boolean {
  return permissions.some(
    (p) => p === '*' || p === code || (p.endsWith(':*') && code.startsWith(p.slice(0, -1))),
  );
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Bumped on sign-in and sign-out: the tokens live outside React.
  const [, setVersion] = useState(0);
  const meQuery = useQuery({
    queryKey: ['me'],
    queryFn: () => data(api.GET('/api/v1/me')) as Promise<Me>,
    enabled: readTokens() !== null,
    retry: false,
    staleTime: 60_000,
  });
  const me = readTokens() ? (meQuery.data ?? null) : null;

  const signIn = useCallback(
    async (tokens: Tokens) => {
      saveTokens(tokens);
      queryClient.removeQueries();
      const me = (await data(api.GET('/api/v1/me'))) as Me;
      queryClient.setQueryData(['me'], me);
      setVersion((v) => v + 1);
    },
    [queryClient],
  );

  const signOut = useCallback(async () => {
    const tokens = readTokens();
    if (tokens) {
      await api
        .POST('/api/v1/logout', { body: { refresh_token: tokens.refresh_token } })
        .catch(() => undefined);
    }
    saveTokens(null);
    queryClient.removeQueries();
    setVersion((v) => v + 1);
  }, [queryClient]);

  const value = useMemo<AuthValue>(
    () => ({
      me,
      loading: readTokens() !== null && meQuery.isPending,
      can: (code) => (me ? grants(me.permissions, code) : false),
      signIn,
      signOut,
    }),
    [me, meQuery.isPending, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
