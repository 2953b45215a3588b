import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One GitHub account as the stand-in serves it. */
export interface GithubAccount {
  id: number;
  login: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

interface Grant {
  account: GithubAccount;
  redirectUri: string;
  challenge: string;
}

/**
 * A stand-in for GitHub's OAuth2 and REST endpoints, as a real HTTP server: the platform under
 * test reaches it through OAUTH_GITHUB_BASE_URL / OAUTH_GITHUB_API_URL (API under /api/v3, as
 * GitHub Enterprise serves it). `/login/oauth/authorize` signs in as `signIn` at once.
 */
export class GithubStandIn {
  signIn: GithubAccount | undefined;
  readonly clientId = `Iv1.${randomBytes(8).toString('hex')}`;
  readonly clientSecret = randomBytes(20).toString('hex');
  private readonly grants = new Map<string, Grant>();
  private readonly tokens = new Map<string, GithubAccount>();
  private server: Server | undefined;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.handle(req).then(
        ({ status, headers, body }) => {
          res.writeHead(status, headers);
          res.end(body === undefined ? undefined : JSON.stringify(body));
        },
        (err: Error) => {
          res.writeHead(500);
          res.end(err.message);
        },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async handle(req: IncomingMessage) {
    const url = new URL(req.url!, this.base);
    const json = (status: number, body: unknown) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== this.clientId || !this.signIn) return json(400, { error: 'x' });
      if (q.get('code_challenge_method') !== 'S256') return json(400, { error: 'pkce' });
      const code = randomBytes(10).toString('hex');
      this.grants.set(code, {
        account: this.signIn,
        redirectUri: q.get('redirect_uri')!,
        challenge: q.get('code_challenge')!,
      });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state')!);
      return { status: 302, headers: { location: back.toString() }, body: undefined };
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      let raw = '';
      for await (const chunk of req) raw += String(chunk);
      const form = new URLSearchParams(raw);
      const grant = this.grants.get(form.get('code') ?? '');
      this.grants.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        form.get('client_id') !== this.clientId ||
        form.get('client_secret') !== this.clientSecret ||
        !grant ||
        grant.redirectUri !== form.get('redirect_uri') ||
        grant.challenge !== challenge
      ) {
        return json(400, { error: 'bad_verification_code' });
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      this.tokens.set(token, grant.account);
      return json(200, {
        access_token: token,
        token_type: 'bearer',
        scope: 'read:user,user:email',
      });
    }
    const account = this.tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (req.method === 'GET' && url.pathname.startsWith('/api/v3/')) {
      if (!account) return json(401, { message: 'Bad credentials' });
      if (url.pathname === '/api/v3/user')
        return json(200, { id: account.id, login: account.login });
      if (url.pathname === '/api/v3/user/emails') return json(200, account.emails);
    }
    return json(404, { message: 'Not Found' });
  }
}
