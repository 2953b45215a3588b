import { describe, expect, it } from 'vitest';
import { codeState, groupPermissions, moduleOf, toggle, wildcardsOf } from './permissionGroups';

const catalogue = [
  { code: 'system:user:update', description: 'Change users', platform_only: false },
  { code: 'bpm:definition:list', description: 'See flow definitions', platform_only: false },
  { code: 'system:user:list', description: 'See users', platform_only: false },
  { code: 'system:tenant:list', description: 'See tenants', platform_only: true },
];

describe('groupPermissions', () => {
  it('groups codes by module, modules and codes in order', () => {
    const groups = groupPermissions(catalogue);
    expect(groups.map((g) => g.module)).toEqual(['bpm:definition', 'system:tenant', 'system:user']);
    expect(groups[2]!.entries.map((e) => e.code)).toEqual([
      'system:user:list',
      'system:user:update',
    ]);
  });

  it('keeps only codes whose code or description holds the search, any case', () => {
    expect(groupPermissions(catalogue, 'SEE').flatMap((g) => g.entries.map((e) => e.code))).toEqual(
      ['bpm:definition:list', 'system:tenant:list', 'system:user:list'],
    );
    expect(groupPermissions(catalogue, 'tenant').map((g) => g.module)).toEqual(['system:tenant']);
    expect(groupPermissions(catalogue, 'nothing like it')).toEqual([]);
  });

  it('names the module by the first two segments', () => {
    expect(moduleOf('system:user:reset-password')).toBe('system:user');
    expect(moduleOf('audit')).toBe('audit');
  });
});

describe('codeState', () => {
  it('lets the editor change only codes they hold', () => {
    expect(codeState([], 'system:user:list', ['system:user:*'])).toEqual({
      checked: false,
      via: null,
      editable: true,
    });
    expect(codeState(['system:tenant:list'], 'system:tenant:list', ['system:user:*'])).toEqual({
      checked: true,
      via: null,
      editable: false,
    });
  });

  it('shows a code a wildcard grants as checked through it, not changeable alone', () => {
    expect(codeState(['system:user:*'], 'system:user:list', ['*'])).toEqual({
      checked: true,
      via: 'system:user:*',
      editable: false,
    });
    expect(codeState(['*'], 'bpm:definition:list', ['*']).via).toBe('*');
  });
});

describe('toggle and wildcardsOf', () => {
  it('adds a code once and takes it out', () => {
    expect(toggle(['a:b:c'], 'a:b:d', true)).toEqual(['a:b:c', 'a:b:d']);
    expect(toggle(['a:b:c', 'a:b:d'], 'a:b:d', true)).toEqual(['a:b:c', 'a:b:d']);
    expect(toggle(['a:b:c', 'a:b:d'], 'a:b:c', false)).toEqual(['a:b:d']);
  });

  it('finds the wildcards of a role', () => {
    expect(wildcardsOf(['*', 'system:user:*', 'system:user:list'])).toEqual(['*', 'system:user:*']);
  });
});
