/**
 * The approval engine's public surface: pure functions over plain data (see README.md). The
 * helpers advance.ts shares with actions.ts (task opening, logging, cloning) stay internal.
 */
export type * from './types.js';
export {
  SYSTEM_ACTOR,
  SYSTEM_NAME,
  SYSTEM_OPERATOR,
  TERMINAL_STATUSES,
  isTerminal,
} from './types.js';

export { allNodes, enclosingBranch, findNode, firstNodeOfBranch, nextNodeAfter } from './tree.js';
export {
  chooseBranch,
  evaluateCondition,
  type BranchChoice,
  type BranchEvaluation,
  type ConditionInput,
  type ConditionOutcome,
} from './condition.js';
export {
  resolveAssignees,
  resolveNodeAssignees,
  type AssigneeResolution,
  type AssigneeSource,
  type NodeResolution,
  type ResolvedAssignees,
} from './assignees.js';
export { advance, startInstance, type StartInit } from './advance.js';
export { applyAction } from './actions.js';
export {
  ACTION_ORDER,
  availableActions,
  cancelAllowed,
  pathStartRound,
  returnPreviousTarget,
} from './available.js';
export {
  explainTask,
  simulate,
  type SimulatedBranch,
  type SimulatedFailure,
  type SimulatedNode,
  type Simulation,
  type TaskExplanation,
} from './simulate.js';

// Written alongside: form validation, publish-time tree validation, hidden fields.
export * from './form.js';
export * from './validate-tree.js';
export * from './hidden.js';
export * from './tree-size.js';
export * from './publish-checks.js';
