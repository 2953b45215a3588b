import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import type { OAuthClient } from '../../../api/oauthClients';
import { changeBody, createBody, uriLines, valuesOf, withUriLines } from './clientForm';

const client: OAuthClient = {
  id: 3,
  client_id: 'c_abc',
  name: 'Reports',
  redirect_uris: ['https://a.example/cb', 'com.example.app:/cb'],
  grant_types: ['authorization_code', 'refresh_token'],
  public: false,
  access_token_format: 'jwt',
  token_rate_per_minute: 60,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('the OAuth2 client form', () => {
  it('reads the redirect URIs one per line, skipping blank ones and keeping line numbers', () => {
    expect(uriLines(' https://a.example/cb \n\n  \ncom.example.app:/cb\r\n')).toEqual([
      { uri: 'https://a.example/cb', line: 1 },
      { uri: 'com.example.app:/cb', line: 4 },
    ]);
    expect(uriLines(undefined)).toEqual([]);
  });

  it('sends a create with `public`, and an edit without it', () => {
    const values = { ...valuesOf(client), name: '  Reports 2 ' };
    expect(createBody(values)).toEqual({
      name: 'Reports 2',
      public: false,
      redirect_uris: ['https://a.example/cb', 'com.example.app:/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      access_token_format: 'jwt',
      token_rate_per_minute: 60,
    });
    expect(changeBody(values)).not.toHaveProperty('public');
    expect(changeBody({ ...values, token_rate_per_minute: null }).token_rate_per_minute).toBe(0);
  });

  it('starts a new client as confidential with the authorization code grant', () => {
    expect(valuesOf(null)).toMatchObject({ public: false, grant_types: ['authorization_code'] });
  });

  it('puts a bad redirect URI on the field, naming the line it is on', () => {
    const text = 'https://ok.example/cb\n\njavascript:alert(1)';
    const error = new ApiError(400, 40001, 'validation failed', {
      fields: [
        { field: 'redirect_uris.1', rule: 'format', message: 'scheme javascript: is not allowed' },
        { field: 'name', rule: 'required', message: 'Required' },
      ],
    });
    const mapped = withUriLines(error, text, (line, message) => `Line ${line}: ${message}`);
    expect(mapped).toBeInstanceOf(ApiError);
    expect((mapped as ApiError).fields).toEqual([
      {
        field: 'redirect_uris',
        rule: 'format',
        message: 'Line 3: scheme javascript: is not allowed',
      },
      { field: 'name', rule: 'required', message: 'Required' },
    ]);
    const other = new Error('network');
    expect(withUriLines(other, text, () => '')).toBe(other);
  });
});
