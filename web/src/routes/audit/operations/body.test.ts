import { describe, expect, it } from 'vitest';
import { prettyBody } from './body';

describe('prettyBody', () => {
  it('indents a JSON body, masked values as stored', () => {
    expect(prettyBody('{"username":"a","password":"***"}')).toBe(
      '{\n  "username": "a",\n  "password": "***"\n}',
    );
  });
  it('shows text that is not JSON as it is, and nothing for an empty body', () => {
    expect(prettyBody('[omitted]')).toBe('[omitted]');
    expect(prettyBody(null)).toBeNull();
    expect(prettyBody('')).toBeNull();
  });
});
