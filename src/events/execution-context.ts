import { randomUUID } from '../util/builtins-on-demand.js';
import type { ExecutionContext } from './types.js';

/** The root of an execution tree (depth 0). */
export function rootExecution(executionId: string, agent: string): ExecutionContext {
  return { executionId, depth: 0, path: [agent] };
}

/** A child of `parent`: new id, parent link, one level deeper, path extended. */
export function childExecution(parent: ExecutionContext, agent: string): ExecutionContext {
  return {
    executionId: randomUUID(),
    parentId: parent.executionId,
    depth: parent.depth + 1,
    path: [...parent.path, agent],
  };
}

/** `router → weather`, for logs and progress. */
export function pathString(execution: ExecutionContext): string {
  return execution.path.join(' → ');
}
