import { describe, expect, it } from 'vitest';
import { businessQuery, instant, loginQuery, operationQuery } from './queries';

describe('operationQuery', () => {
  it('sends a numeric user as user_id and anything else as part of a username', () => {
    expect(operationQuery({ user: '42' })).toEqual({ user_id: 42 });
    expect(operationQuery({ user: 'ali' })).toEqual({ username: 'ali' });
    expect(operationQuery({ user: '007x' })).toEqual({ username: '007x' });
  });
  it('searches the path with the keyword and upper-cases a known method', () => {
    expect(operationQuery({ keyword: '/users', method: 'post', module: 'users' })).toEqual({
      path: '/users',
      method: 'POST',
      module: 'users',
    });
  });
  it('drops a method, status or time the server would refuse', () => {
    expect(
      operationQuery({ method: 'BREW', status: '99', start_time: 'yesterday', end_time: '2026' }),
    ).toEqual({});
    expect(operationQuery({ status: '404' })).toEqual({ status: '404' });
  });
  it('keeps a time range of ISO instants', () => {
    const range = { start_time: '2026-11-01T00:00:00.000Z', end_time: '2026-11-02T00:00:00.000Z' };
    expect(operationQuery(range)).toEqual(range);
  });
});

describe('loginQuery', () => {
  it('takes success only as true or false', () => {
    expect(loginQuery({ success: 'false', username: 'bob' })).toEqual({
      success: 'false',
      username: 'bob',
    });
    expect(loginQuery({ success: 'yes' })).toEqual({});
  });
});

describe('businessQuery', () => {
  it('takes the facets as given and the actor only as an id', () => {
    expect(businessQuery({ action: 'update', target_type: 'role', actor_id: 'x' })).toEqual({
      action: 'update',
      target_type: 'role',
    });
    expect(businessQuery({ actor_id: '3', target_id: '17' })).toEqual({
      actor_id: 3,
      target_id: '17',
    });
  });
});

describe('instant', () => {
  it('accepts ISO date-times only', () => {
    expect(instant('2026-11-26T08:00:00Z')).toBe('2026-11-26T08:00:00Z');
    expect(instant('2026-13-45T99:00:00Z')).toBeUndefined();
    expect(instant('1700000000')).toBeUndefined();
  });
});
