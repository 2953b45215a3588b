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

/** A captcha to answer: its id goes back in a hidden input, the image is a data URL. */
export interface PageCaptcha {
  captcha_id: string;
  image: string;
}

function errorLine(error: string | undefined): string {
  return error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
}

function captchaInputs(captcha: PageCaptcha | undefined): string {
  if (!captcha) return '';
  return `<input type="hidden" name="captcha_id" value="${escapeHtml(captcha.captcha_id)}">
<label for="captcha">Characters in the picture</label><img src="${escapeHtml(captcha.image)}" alt="captcha" height="40"><input id="captcha" name="captcha" type="text" required autocomplete="off">`;
}

export function signInPage(input: {
  action: string;
  clientName: string;
  username?: string | undefined;
  tenantCode?: string | undefined;
  error?: string | undefined;
  captcha?: PageCaptcha | undefined;
}): string {
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p>to continue to <strong>${escapeHtml(input.clientName)}</strong></p>${errorLine(input.error)}
<form method="post" action="${escapeHtml(input.action)}" autocomplete="on">
<label for="username">Username</label><input id="username" name="username" type="text" required autofocus value="${escapeHtml(input.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<label for="tenant_code">Tenant code (optional)</label><input id="tenant_code" name="tenant_code" type="text" value="${escapeHtml(input.tenantCode ?? '')}">
${captchaInputs(input.captcha)}<button type="submit">Sign in</button>
</form>`,
  );
}

/** The second step for a user with TOTP on: the authenticator's code or a recovery code. */
export function totpPage(input: {
  action: string;
  clientName: string;
  error?: string | undefined;
}): string {
  return page(
    'Two-factor code',
    `<h1>Two-factor code</h1>
<p>to continue to <strong>${escapeHtml(input.clientName)}</strong></p>${errorLine(input.error)}
<form method="post" action="${escapeHtml(input.action)}">
<label for="totp_code">Code from your authenticator app, or a recovery code</label><input id="totp_code" name="totp_code" type="text" required autofocus autocomplete="one-time-code" inputmode="numeric">
<button type="submit">Continue</button>
</form>`,
  );
}

/** The refusal while an administrator's password must be changed first, in the console. */
export function passwordChangePage(consoleUrl: string): string {
  return page(
    'Password change required',
    `<h1>Password change required</h1>
<p class="error" role="alert">You must change your password before you can sign in to other applications.</p>
<p><a href="${escapeHtml(consoleUrl)}">Change it in the Approva console</a>, then start again from the application.</p>`,
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
