import { afterEach, describe, expect, it } from 'vitest';
import { rememberAttempt, safePath, takeAttempt } from './oauthState';

afterEach(() => sessionStorage.clear());

describe('external sign-in attempts kept per state', () => {
  it('answers the purpose a state was started for, once', () => {
    rememberAttempt('s-link', { purpose: 'link', back: '/profile' });
    rememberAttempt('s-login', { purpose: 'login', back: '/done?x=1' });
    expect(takeAttempt('s-link')).toEqual({ purpose: 'link', back: '/profile' });
    expect(takeAttempt('s-link')).toBeNull();
    expect(takeAttempt('s-login')).toEqual({ purpose: 'login', back: '/done?x=1' });
    expect(takeAttempt('never-issued')).toBeNull();
  });

  it('never goes back to another site, and ignores what it did not write', () => {
    rememberAttempt('s1', { purpose: 'login', back: '//evil.example/x' });
    expect(takeAttempt('s1')).toEqual({ purpose: 'login', back: '/todo' });
    sessionStorage.setItem('approva.oauth.s2', '{"purpose":"admin"}');
    expect(takeAttempt('s2')).toBeNull();
    sessionStorage.setItem('approva.oauth.s3', 'not json');
    expect(takeAttempt('s3')).toBeNull();
    expect(safePath('https://evil.example', '/todo')).toBe('/todo');
    expect(safePath('/profile', '/todo')).toBe('/profile');
  });
});
