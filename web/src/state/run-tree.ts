import type { ApprovalRecord, RunEvent, RunRecord } from '../api/wire-types.js';
import { buildExecutionTree, type ExecutionNode } from './event-tree.js';
import { replyOutcome } from './run-outcome.js';

/** What a person reads for one execution of the agent tree. */
export type NodeState = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/** One execution as the run tree shows it: the shared reducer's node plus what it counts. */
export interface TreeRow {
  node: ExecutionNode;
  state: NodeState;
  turns: number;
  toolCalls: number;
  /** Pending approvals of this execution's calls, to link to. */
  approvalIds: string[];
  children: TreeRow[];
}

type RunFacts = Pick<RunRecord, 'status' | 'errorCode'>;
type ApprovalFacts = Pick<ApprovalRecord, 'id' | 'callId' | 'status'>;

/** The run's agent tree from its events (live or stored), each node with its state. */
export function runTree(
  events: readonly RunEvent[],
  run: RunFacts,
  approvals: readonly ApprovalFacts[],
): TreeRow[] {
  const pending = approvals.filter((a) => a.status === 'pending');
  const row = (node: ExecutionNode): TreeRow => {
    const approvalIds = waitingApprovals(node, pending);
    const children = node.children.map(row);
    const state = nodeState(node, run, approvalIds.length > 0);
    // A parent paused for its subagent's approval is still at work: only the asker is marked.
    const forChild = approvalIds.length === 0 && children.some(waits);
    return {
      node,
      state: state === 'waiting' && forChild ? 'running' : state,
      turns: node.events.filter((e) => e.type === 'turn_started').length,
      toolCalls: node.events.filter((e) => e.type === 'tool_call').length,
      approvalIds,
      children,
    };
  };
  return buildExecutionTree(events).map(row);
}

const waits = (row: TreeRow): boolean => row.state === 'waiting' || row.children.some(waits);

/** A node's state: how it ended, else whether a person is asked, else how the run ended. */
export function nodeState(node: ExecutionNode, run: RunFacts, waiting: boolean): NodeState {
  if (node.status === 'finished') {
    switch (node.terminateReason) {
      case undefined:
      case 'GOAL':
        return 'completed';
      case 'ABORTED':
        return 'cancelled';
      case 'ERROR':
      case 'TIMEOUT':
      case 'MAX_TURNS':
      case 'MAX_COST':
        return 'failed';
      default:
        return node.terminateReason satisfies never;
    }
  }
  if (waiting) return 'waiting';
  // The run ended without this execution saying how (a failure, a cancel): it ended with the run.
  const outcome = replyOutcome(run);
  switch (outcome) {
    case 'answered':
      return 'completed';
    case 'failed':
    case 'cancelled':
      return outcome;
    case 'open':
      return run.status === 'awaiting_confirmation' && node.status === 'paused'
        ? 'waiting'
        : 'running';
    default:
      return outcome satisfies never;
  }
}

/**
 * The pending approvals of calls this execution asked about and still has
 * open. A subagent's approval names its call scoped (`mailer@1a2b/call_1`).
 */
function waitingApprovals(node: ExecutionNode, pending: readonly ApprovalFacts[]): string[] {
  const asked = new Set(
    node.events
      .filter((e) => e.type === 'approval_required' && typeof e.data.callId === 'string')
      .map((e) => String(e.data.callId)),
  );
  const open = node.openCallIds.filter((id) => asked.has(id));
  return pending
    .filter((approval) => {
      if (open.includes(approval.callId)) return true;
      const segments = approval.callId.split('/');
      const own = segments.at(-1) ?? '';
      const scope = segments.at(-2)?.replace(/@[^@]*$/, '');
      return open.includes(own) && (node.depth === 0 ? !scope : scope === node.agent);
    })
    .map((approval) => approval.id);
}

/** How a state reads on the page. */
export const STATE_TEXT: Record<NodeState, string> = {
  running: 'running',
  waiting: 'waiting for approval',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};
