import type { TerminateReason } from '../contracts/run-result.js';
import { addUsage, emptyUsage, type Usage } from '../model/types.js';
import { TASK_TOOL } from '../contracts/task-tool-name.js';
import type { CadreEvent, CadreEventOf } from './types.js';

/*
 * The execution tree of a run, rebuilt from its events alone: the same for
 * a live stream, a stored run or a replay. Pure and framework-free (no Node
 * APIs), so the tracer, the CLI and the web page fold events the same way.
 */

/** `pending`: announced by its parent's subagent_started, no event of its own yet. */
export type ExecutionStatus = 'pending' | 'running' | 'paused' | 'finished';

/** A tool call that started and has no result yet. */
export interface OpenCall {
  readonly tool: string;
  /** A child was already placed under this call. */
  readonly spawned: boolean;
}

export interface ExecutionNode {
  readonly executionId: string;
  readonly runId: string;
  readonly parentId?: string;
  /** The parent's tool call that started this execution, when one did. */
  readonly spawnedBy?: string;
  readonly depth: number;
  /** The agent's name: the last element of its path. */
  readonly agent: string;
  readonly path: readonly string[];
  readonly status: ExecutionStatus;
  readonly terminateReason?: TerminateReason;
  /** Seq and ISO time of its first and latest own event; absent while pending. */
  readonly firstSeq?: number;
  readonly startedAt?: string;
  readonly endedAt?: string;
  /** The tokens of its own `usage` events (its children's are theirs). */
  readonly usage: Usage;
  readonly openCalls: Readonly<Record<string, OpenCall>>;
}

export interface ExecutionTree {
  /** By executionId, in the order they appeared. */
  readonly nodes: Readonly<Record<string, ExecutionNode>>;
}

export const EMPTY_TREE: ExecutionTree = { nodes: {} };

/** The tree after one more event. Events of unknown types only place and time their execution. */
export function reduceExecutionTree(tree: ExecutionTree, event: CadreEvent): ExecutionTree {
  const nodes: Record<string, ExecutionNode> = { ...tree.nodes };
  let node = touched(ownEntry(nodes, event.executionId) ?? newNode(event), event);
  const known = event;
  switch (known.type) {
    case 'usage':
      node = { ...node, usage: addUsage(node.usage, usageOf(known.data)) };
      break;
    case 'tool_call':
    case 'approval_required':
    case 'approval_resolved':
      // Approval events name a call that may have started in an earlier process (a resume).
      node = withCall(node, known.data.callId, known.data.tool);
      break;
    case 'tool_result':
      node = withoutCall(node, known.data.callId);
      break;
    case 'subagent_started':
    case 'subagent_resumed':
      node = announceChild(nodes, node, known);
      break;
    case 'subagent_finished':
    case 'subagent_paused':
      endChild(nodes, known);
      break;
    case 'final_result':
      if (node.status !== 'finished') {
        const reason = reasonOf(known.data.result?.terminate_reason);
        node = {
          ...node,
          status: 'finished',
          openCalls: {},
          ...(reason ? { terminateReason: reason } : {}),
        };
      }
      break;
    case 'run_paused':
      node = { ...node, status: 'paused' };
      break;
    default:
      break;
  }
  nodes[node.executionId] = node;
  return { nodes };
}

/** Folds a whole list of events, in the order given. */
export function buildExecutionTree(events: Iterable<CadreEvent>): ExecutionTree {
  let tree = EMPTY_TREE;
  for (const event of events) tree = reduceExecutionTree(tree, event);
  return tree;
}

/** The execution with this id, if the tree has it. */
export function nodeOf(tree: ExecutionTree, executionId: string): ExecutionNode | undefined {
  return ownEntry(tree.nodes, executionId);
}

/** Executions with no parent in the tree (a run's root, or one whose parent's events are missing). */
export function rootNodes(tree: ExecutionTree): ExecutionNode[] {
  return Object.values(tree.nodes).filter(
    (node) => node.parentId === undefined || !Object.hasOwn(tree.nodes, node.parentId),
  );
}

export function childNodes(tree: ExecutionTree, executionId: string): ExecutionNode[] {
  return Object.values(tree.nodes).filter((node) => node.parentId === executionId);
}

/**
 * A usage event's figures. Stored events may come from older writers, so
 * numbers are checked; a missing total is the sum of its parts, and a cost
 * stays absent where nobody priced the call.
 */
function usageOf(data: Readonly<Record<string, unknown>>): Usage {
  const input = num(data.inputTokens);
  const output = num(data.outputTokens);
  const thought = num(data.thoughtTokens);
  return {
    inputTokens: input,
    outputTokens: output,
    thoughtTokens: thought,
    totalTokens: num(data.totalTokens) || input + output + thought,
    ...(typeof data.cachedInputTokens === 'number'
      ? { cachedInputTokens: data.cachedInputTokens }
      : {}),
    ...(typeof data.costUsd === 'number' ? { costUsd: data.costUsd } : {}),
  };
}

function newNode(event: CadreEvent): ExecutionNode {
  return {
    executionId: event.executionId,
    runId: event.runId,
    ...(event.parentExecutionId ? { parentId: event.parentExecutionId } : {}),
    depth: event.depth,
    agent: event.path.at(-1) ?? 'agent',
    path: event.path,
    status: 'running',
    usage: emptyUsage(),
    openCalls: {},
  };
}

/** An own event: the execution runs (once it was pending, or goes on after a pause) and its time span grows. */
function touched(node: ExecutionNode, event: CadreEvent): ExecutionNode {
  return {
    ...node,
    ...(node.status === 'pending' || node.status === 'paused'
      ? { status: 'running' as const }
      : {}),
    firstSeq: node.firstSeq ?? event.seq,
    startedAt: node.startedAt ?? event.timestamp,
    endedAt: event.timestamp,
  };
}

function withCall(node: ExecutionNode, callId: unknown, tool: unknown): ExecutionNode {
  if (typeof callId !== 'string' || !callId || Object.hasOwn(node.openCalls, callId)) return node;
  const call: OpenCall = { tool: typeof tool === 'string' && tool ? tool : 'tool', spawned: false };
  return { ...node, openCalls: { ...node.openCalls, [callId]: call } };
}

function withoutCall(node: ExecutionNode, callId: unknown): ExecutionNode {
  if (typeof callId !== 'string' || !Object.hasOwn(node.openCalls, callId)) return node;
  const { [callId]: _ended, ...rest } = node.openCalls;
  return { ...node, openCalls: rest };
}

/** A child exists from the moment its parent starts it, even while it waits for a slot. */
function announceChild(
  nodes: Record<string, ExecutionNode>,
  parent: ExecutionNode,
  event: CadreEventOf<'subagent_started' | 'subagent_resumed'>,
): ExecutionNode {
  const { executionId, agent } = event.data;
  if (typeof executionId !== 'string' || typeof agent !== 'string') return parent;
  const known = ownEntry(nodes, executionId);
  if (known && known.status !== 'paused') return parent;
  const callId = spawningCall(parent, agent, event.data.callId);
  nodes[executionId] = known
    ? { ...known, status: 'pending' }
    : {
        executionId,
        runId: parent.runId,
        parentId: parent.executionId,
        ...(callId ? { spawnedBy: callId } : {}),
        depth: parent.depth + 1,
        agent,
        path: [...parent.path, agent],
        status: 'pending',
        usage: emptyUsage(),
        openCalls: {},
      };
  const call = callId === undefined ? undefined : ownEntry(parent.openCalls, callId);
  if (callId === undefined || !call || call.spawned) return parent;
  return { ...parent, openCalls: { ...parent.openCalls, [callId]: { ...call, spawned: true } } };
}

/**
 * The call a child was started from: the one its event names, else an open
 * call of the child's agent tool (named after it) or of `task` that has no
 * child yet, else the only open call. Events written before they named the
 * call need the guess.
 */
function spawningCall(parent: ExecutionNode, agent: string, named: unknown): string | undefined {
  if (typeof named === 'string' && named) return named;
  const open = Object.entries(parent.openCalls);
  const byTool = open.find(
    ([, call]) => !call.spawned && (call.tool === agent || call.tool === TASK_TOOL),
  );
  if (byTool) return byTool[0];
  return open.length === 1 ? open[0]?.[0] : undefined;
}

/** The parent says how its child ended: it counts when the child could not say it itself. */
function endChild(
  nodes: Record<string, ExecutionNode>,
  event: CadreEventOf<'subagent_finished' | 'subagent_paused'>,
): void {
  const child = ownEntry(nodes, event.data.executionId);
  if (!child || child.status === 'finished') return;
  if (event.type === 'subagent_paused') {
    nodes[child.executionId] = { ...child, status: 'paused' };
    return;
  }
  const reason = reasonOf(event.data.terminate_reason);
  nodes[child.executionId] = {
    ...child,
    status: 'finished',
    openCalls: {},
    ...(reason ? { terminateReason: reason } : {}),
  };
}

const REASONS: ReadonlySet<string> = new Set<TerminateReason>([
  'GOAL',
  'ERROR',
  'TIMEOUT',
  'MAX_TURNS',
  'MAX_COST',
  'ABORTED',
]);

const isReason = (value: unknown): value is TerminateReason =>
  typeof value === 'string' && REASONS.has(value);

const reasonOf = (value: unknown): TerminateReason | undefined =>
  isReason(value) ? value : undefined;

/** Ids come from events, stored ones included: a key such as `constructor` must not find Object's. */
const ownEntry = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
