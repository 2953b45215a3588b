import { describe, expect, it } from 'vitest';
import { StatementNames } from './prepared.js';

describe('statement names', () => {
  it('gives a text one stable name, and a retired text a fresh one', () => {
    const names = new StatementNames();
    const text = 'select "id" from "users" where "id" = $1';
    const first = names.of(text, [1]);
    expect(first).toMatch(/^approva_\d+$/);
    expect(names.of(text, [2])).toBe(first);
    expect(names.of('select "id" from "roles" where "id" = $1', [1])).not.toBe(first);
    names.retire(text);
    const fresh = names.of(text, [1]);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(first);
  });

  it('leaves unnamed the texts without values and those shaped by the data', () => {
    const names = new StatementNames();
    expect(names.of('select 1', [])).toBeUndefined();
    expect(names.of('select * from "t" where "id" in ($1, $2, $3)', [1, 2, 3])).toBeUndefined();
    expect(names.of('insert into "t" ("a", "b") values ($1, $2), ($3, $4)', [1, 2, 3, 4])).toBe(
      undefined,
    );
    // One value in a list, or one row, has a fixed shape.
    expect(names.of('select * from "t" where "id" in ($1)', [1])).toBeDefined();
    expect(names.of('insert into "t" ("a", "b") values ($1, $2)', [1, 2])).toBeDefined();
    expect(names.size).toBe(2);
  });

  it('names no more than its bound: later texts go unnamed', () => {
    const names = new StatementNames(3);
    const named = [1, 2, 3, 4, 5].map((n) => names.of(`select $1::int + ${n}`, [n]));
    expect(named.filter(Boolean)).toHaveLength(3);
    expect(named.slice(3)).toEqual([undefined, undefined]);
    expect(names.of('select $1::int + 1', [0])).toBe(named[0]);
  });
});
