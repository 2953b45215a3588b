/** The server-rendered sign-in and consent pages: no JavaScript, every value escaped. */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style>
</head><body>${body}</body></html>`;
}

export function signInPage(input: {
  action: string;
  clientName: string;
  username?: string | undefined;
  tenantCode?: string | undefined;
  error?: string | undefined;
}): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(input.clientName)}</strong></p>${error}
<form method="post" action="${escapeHtml(input.action)}" autocomplete="on">
<label for="username">Username</label><input id="username" name="username" type="text" required autofocus value="${escapeHtml(input.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<label for="tenant_code">Tenant code (optional)</label><input id="tenant_code" name="tenant_code" type="text" value="${escapeHtml(input.tenantCode ?? '')}">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function consentPage(input: {
  action: string;
  abortAction: string;
  clientName: string;
  scopes: string[];
}): string {
  const scopes = input.scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('');
  return page(
    'Authorize',
    `<h1>Authorize ${escapeHtml(input.clientName)}</h1>
<p>${escapeHtml(input.clientName)} asks for:</p><ul>${scopes || '<li>sign-in only</li>'}</ul>
<form method="post" action="${escapeHtml(input.action)}"><button type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(input.abortAction)}"><button type="submit">Deny</button></form>`,
  );
}

export function errorPage(message: string): string {
  return page('Sign-in error', `<h1>Sign-in error</h1><p class="error">${escapeHtml(message)}</p>`);
}
