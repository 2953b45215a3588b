import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// First: the API client keeps the `fetch` it finds when it is created.
import { server } from '../../test/fakeServer';
import { aMe } from '../../test/me';
import i18n from '../../i18n';
import { AuthProvider } from '../../auth/AuthContext';
import { readTokens, saveTokens } from '../../api/session';
import Login from '../auth/login/Login';
import ForgotPassword from '../auth/forgot-password/ForgotPassword';
import OAuthCallback from '../auth/oauth-callback/OAuthCallback';
import ResetPassword from '../auth/reset-password/ResetPassword';
import { LinkedAccounts } from './profile/LinkedAccounts';
import { TotpCard } from './profile/TotpCard';
import { rememberAttempt } from '../../auth/oauthState';

const ok = (data: unknown) => ({ status: 200, body: { code: 200, message: 'success', data } });
const fail = (status: number, code: number, message: string, data: unknown = null) => ({
  status,
  body: { code, message, data },
});
const ME = aMe({ id: 7, username: 'ann', nickname: 'Ann' });

function mount(path: string, routes: Array<{ path: string; element: ReactNode }>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([...routes, { path: '*', element: <div>elsewhere</div> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <AntApp>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </AntApp>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  server.calls = [];
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

const submit = async (name: RegExp | string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('sign-in with TOTP on', () => {
  it('asks for the code on 40001 `totp_code` without an error, then sends it with the password', async () => {
    server.answer = (method, path, _query, body) => {
      if (path === '/api/v1/login/oauth') return ok({ providers: ['github'] });
      if (path === '/api/v1/me') return ok(ME);
      if (path !== '/api/v1/login') return undefined;
      const code = (body as { totp_code?: string }).totp_code;
      if (!code)
        return fail(400, 40001, 'validation failed', {
          fields: [{ field: 'totp_code', rule: 'required', message: 'is required' }],
        });
      return code === '123456'
        ? ok({ access_token: 'a', refresh_token: 'r' })
        : fail(401, 40103, 'wrong username or password');
    };
    const router = mount('/login?redirect=%2Fdone', [
      { path: '/login', element: <Login /> },
      { path: '/done', element: <div>done page</div> },
    ]);
    // The provider list gives one button; the forgot link is there.
    expect(await screen.findByRole('button', { name: 'Sign in with GitHub' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'ann' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    await submit('Sign in');
    const code = await screen.findByLabelText('Verification code');
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(code, { target: { value: '654321' } });
    await submit('Sign in');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Wrong username or password.');

    fireEvent.change(code, { target: { value: ' 123456 ' } });
    await submit('Sign in');
    await waitFor(() => expect(router.state.location.pathname).toBe('/done'));
    const logins = server.calls.filter((c) => c.path === '/api/v1/login').map((c) => c.body);
    expect(logins).toEqual([
      { username: 'ann', password: 'pw' },
      { username: 'ann', password: 'pw', totp_code: '654321' },
      { username: 'ann', password: 'pw', totp_code: '123456' },
    ]);
    expect(readTokens()).toEqual({ access_token: 'a', refresh_token: 'r' });
  });
});

describe('the provider callback page', () => {
  it('finishes a link (not a sign-in) when this tab started the state for linking; 409 said plainly', async () => {
    saveTokens({ access_token: 'a', refresh_token: 'r' });
    rememberAttempt('st-1', { purpose: 'link', back: '/profile' });
    server.answer = (method, path) => {
      if (path === '/api/v1/me') return ok(ME);
      if (path === '/api/v1/me/oauth/github/link/callback')
        return fail(409, 40900, 'the external account is linked to another user');
      return undefined;
    };
    mount('/oauth/callback/github?code=c1&state=st-1&iss=https%3A%2F%2Fgh', [
      { path: '/oauth/callback/:provider', element: <OAuthCallback /> },
    ]);
    expect(await screen.findByText('Linking did not complete')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      'This external account is already linked to another account.',
    );
    const posted = server.calls
      .filter((c) => c.method === 'POST')
      .map(({ method, path, body }) => ({ method, path, body }));
    expect(posted).toEqual([
      {
        method: 'POST',
        path: '/api/v1/me/oauth/github/link/callback',
        body: { code: 'c1', state: 'st-1', iss: 'https://gh' },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Back to my profile' })).toBeTruthy();
  });

  it('signs in with a state it does not know as a link, and goes where the attempt began', async () => {
    rememberAttempt('st-2', { purpose: 'login', back: '/my' });
    server.answer = (method, path) => {
      if (path === '/api/v1/login/oauth/oidc/callback')
        return ok({ access_token: 'a2', refresh_token: 'r2' });
      if (path === '/api/v1/me') return ok(ME);
      return undefined;
    };
    const router = mount('/oauth/callback/oidc?code=c2&state=st-2', [
      { path: '/oauth/callback/:provider', element: <OAuthCallback /> },
      { path: '/my', element: <div>my requests</div> },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/my'));
    expect(readTokens()).toEqual({ access_token: 'a2', refresh_token: 'r2' });
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      code: 'c2',
      state: 'st-2',
    });
  });

  it('asks a TOTP user for the code, then sends it with the same code and state', async () => {
    rememberAttempt('st-3', { purpose: 'login', back: '/my' });
    server.answer = (method, path, _query, body) => {
      if (path === '/api/v1/me') return ok(ME);
      if (path !== '/api/v1/login/oauth/github/callback') return undefined;
      const code = (body as { totp_code?: string }).totp_code;
      if (!code)
        return fail(400, 40001, 'two-factor code required', {
          fields: [{ field: 'totp_code', rule: 'required', message: 'two-factor code required' }],
        });
      return code === '123456'
        ? ok({ access_token: 'a3', refresh_token: 'r3' })
        : fail(401, 40103, 'wrong username or password');
    };
    const router = mount('/oauth/callback/github?code=c3&state=st-3', [
      { path: '/oauth/callback/:provider', element: <OAuthCallback /> },
      { path: '/my', element: <div>my requests</div> },
    ]);
    const code = await screen.findByLabelText('Verification code');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(code, { target: { value: '654321' } });
    await submit('Sign in');
    expect((await screen.findByRole('alert')).textContent).toContain('Wrong username or password.');
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    await submit('Sign in');
    await waitFor(() => expect(router.state.location.pathname).toBe('/my'));
    expect(readTokens()).toEqual({ access_token: 'a3', refresh_token: 'r3' });
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { code: 'c3', state: 'st-3' },
      { code: 'c3', state: 'st-3', totp_code: '654321' },
      { code: 'c3', state: 'st-3', totp_code: '123456' },
    ]);
  });

  it.each([
    [
      'en',
      'No account is linked to this sign-in yet. Sign in with your password, then link it from your profile.',
    ],
    ['zh-CN', '此登录方式尚未关联任何账号。请先用密码登录，再在个人中心中关联。'],
  ])(
    'says in %s that the external account is linked to nobody yet (40105)',
    async (language, text) => {
      await i18n.changeLanguage(language);
      server.answer = (method, path) =>
        path === '/api/v1/login/oauth/github/callback'
          ? fail(401, 40105, 'no account is linked to this external sign-in')
          : undefined;
      // A state is handled once per page load: each language gets its own.
      mount(`/oauth/callback/github?code=c4&state=st-4-${language}`, [
        { path: '/oauth/callback/:provider', element: <OAuthCallback /> },
      ]);
      expect((await screen.findByRole('alert')).textContent).toBe(text);
    },
  );

  it('shows what the provider refused, with a way back to sign-in', async () => {
    server.answer = () => undefined;
    mount('/oauth/callback/github?error=access_denied&error_description=User%20said%20no', [
      { path: '/oauth/callback/:provider', element: <OAuthCallback /> },
    ]);
    expect(await screen.findByText('Sign-in did not complete')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('User said no');
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Back to sign-in' })).toBeTruthy();
  });
});

describe('forgot and reset pages', () => {
  it('answers neutrally, and says so when the server limits the requests (429)', async () => {
    let limited = false;
    server.answer = (method, path) => {
      if (path !== '/api/v1/password/forgot') return undefined;
      return limited
        ? fail(429, 42900, 'too many requests', { retry_after_seconds: 60 })
        : ok(null);
    };
    mount('/forgot-password', [{ path: '/forgot-password', element: <ForgotPassword /> }]);
    fireEvent.change(screen.getByLabelText('Username or e-mail'), {
      target: { value: ' ann@example.test ' },
    });
    fireEvent.change(screen.getByLabelText('Tenant code'), { target: { value: 'acme' } });
    limited = true;
    await submit('Send the link');
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests');
    limited = false;
    await submit('Send the link');
    expect(await screen.findByText('Check your mail')).toBeTruthy();
    expect(server.calls.map((c) => c.body)).toEqual([
      { username_or_email: 'ann@example.test', tenant_code: 'acme' },
      { username_or_email: 'ann@example.test', tenant_code: 'acme' },
    ]);
  });

  it('puts the server’s `token` and `new_password` problems on those fields; success → sign-in', async () => {
    let answer = fail(400, 40001, 'validation failed', {
      fields: [{ field: 'token', rule: 'format', message: 'the reset link is invalid' }],
    });
    server.answer = (method, path) => (path === '/api/v1/password/reset' ? answer : undefined);
    const router = mount('/reset-password?token=tok-1', [
      { path: '/reset-password', element: <ResetPassword /> },
      { path: '/login', element: <Login /> },
    ]);
    expect((screen.getByLabelText('Reset code') as HTMLInputElement).value).toBe('tok-1');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Lamp-9' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), {
      target: { value: 'Lamp-9' },
    });
    await submit('Set the password');
    const tokenItem = screen.getByLabelText('Reset code').closest('.ant-form-item')!;
    await waitFor(() => expect(tokenItem.textContent).toContain('the reset link is invalid'));

    answer = fail(400, 40001, 'validation failed', {
      fields: [
        { field: 'new_password', rule: 'format', message: 'must be at least 10 characters' },
      ],
    });
    await submit('Set the password');
    const passwordItem = screen.getByLabelText('New password').closest('.ant-form-item')!;
    await waitFor(() =>
      expect(passwordItem.textContent).toContain('must be at least 10 characters'),
    );

    answer = ok(null);
    await submit('Set the password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText('Your password is set. Sign in with the new one.')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/api/v1/password/reset').at(-1)?.body).toEqual({
      token: 'tok-1',
      new_password: 'Lamp-9',
    });
  });
});

describe('linked accounts', () => {
  it('lists the linked accounts and unlinks one after confirming', async () => {
    let links = [
      { provider: 'github', email: 'ann@example.test', created_at: '2026-11-01T08:00:00Z' },
    ];
    server.answer = (method, path) => {
      if (path === '/api/v1/login/oauth') return ok({ providers: ['github', 'oidc'] });
      if (path === '/api/v1/me/oauth' && method === 'GET') return ok({ links });
      if (path === '/api/v1/me/oauth/github' && method === 'DELETE') {
        links = [];
        return ok(null);
      }
      return undefined;
    };
    mount('/profile', [{ path: '/profile', element: <LinkedAccounts /> }]);
    expect(await screen.findByText('Linked: GitHub')).toBeTruthy();
    expect(screen.getByText(/ann@example\.test/)).toBeTruthy();
    await submit('Unlink');
    // Nothing is sent before the confirmation.
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await submit(/^OK$/);
    await waitFor(() => expect(screen.queryByText('Linked: GitHub')).toBeNull());
    expect(server.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/api/v1/me/oauth/github',
    ]);
    // The link buttons stay, one per provider.
    expect(screen.getByRole('button', { name: 'Link GitHub' })).toBeTruthy();
  });
});

describe('two-step sign-in in the profile', () => {
  const fill = (label: string, value: string) =>
    fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it('asks for the password to turn it on, and sends it again with the first code', async () => {
    server.answer = (method, path) => {
      if (path === '/api/v1/me/totp' && method === 'GET') return ok({ enabled: false });
      if (path === '/api/v1/me/totp/enroll') {
        return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Approva:ann' });
      }
      if (path === '/api/v1/me/totp/confirm') return ok({ recovery_codes: ['abcde-fghij'] });
      return undefined;
    };
    mount('/profile', [{ path: '/profile', element: <TotpCard /> }]);
    await screen.findByRole('button', { name: 'Turn on two-step sign-in' });
    await submit('Turn on two-step sign-in');
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    fill('Current password', 'My-Password-1');
    await submit('Turn on two-step sign-in');
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(screen.getByText('Your other sessions will be signed out.')).toBeTruthy();
    fill('Code from the app', ' 123456 ');
    await submit(/^Turn on$/);
    expect(await screen.findByText('abcde-fghij')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/api/v1/me/totp/enroll', { password: 'My-Password-1' }],
      ['/api/v1/me/totp/confirm', { code: '123456', password: 'My-Password-1' }],
    ]);
  });

  it('turns it off with the password and a code; a wrong password lands on its field', async () => {
    let answers = 0;
    server.answer = (method, path) => {
      if (path === '/api/v1/me/totp' && method === 'GET')
        return ok({ enabled: answers > 1 ? false : true });
      if (path === '/api/v1/me/totp/disable') {
        answers += 1;
        if (answers === 1) {
          return fail(400, 40001, 'validation failed', {
            fields: [{ field: 'password', rule: 'format', message: 'password is wrong' }],
          });
        }
        return ok(null);
      }
      return undefined;
    };
    mount('/profile', [{ path: '/profile', element: <TotpCard /> }]);
    await screen.findByRole('button', { name: 'Turn off' });
    fill('Current password', 'Wrong-Password-1');
    fill('Current code or a recovery code', '654321');
    await submit('Turn off');
    expect(await screen.findByText('password is wrong')).toBeTruthy();
    fill('Current password', 'My-Password-1');
    await submit('Turn off');
    expect(await screen.findByText('Two-step sign-in is off')).toBeTruthy();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { code: '654321', password: 'Wrong-Password-1' },
      { code: '654321', password: 'My-Password-1' },
    ]);
  });

  it('says so when the server limits wrong codes (429)', async () => {
    server.answer = (method, path) => {
      if (path === '/api/v1/me/totp' && method === 'GET') return ok({ enabled: true });
      if (path === '/api/v1/me/totp/disable') {
        return fail(429, 42900, 'too many wrong codes; try again later', {
          retry_after_seconds: 900,
        });
      }
      return undefined;
    };
    mount('/profile', [{ path: '/profile', element: <TotpCard /> }]);
    await screen.findByRole('button', { name: 'Turn off' });
    fill('Current password', 'My-Password-1');
    fill('Current code or a recovery code', '654321');
    await submit('Turn off');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Too many attempts/);
  });
});
