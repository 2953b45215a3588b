import { useMemo } from 'react';
import type { FlowNode, FormSchema } from '../../../api/bpm';
import { useDepartments, usePeople } from '../../../api/people';
import { deptNames } from '../../../form/deptTree';
import { conditionIds, type ConditionNames } from './conditions';

/** Names of the people and departments a tree's conditions compare with (the designer, previews). */
export function useConditionNames(tree: FlowNode, schema: FormSchema): ConditionNames {
  const ids = useMemo(() => conditionIds(tree, schema), [tree, schema]);
  const people = usePeople(ids.user);
  const departments = useDepartments(ids.dept.length > 0);
  return useMemo(() => {
    const depts = deptNames(departments.data);
    return { user: (id) => people.byId.get(id)?.name, dept: (id) => depts.get(id) };
  }, [people.byId, departments.data]);
}
