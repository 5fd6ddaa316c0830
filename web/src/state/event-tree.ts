import {
  buildExecutionTree as foldEvents,
  childNodes,
  rootNodes,
  type ExecutionNode as TreeNode,
  type ExecutionStatus,
} from '../../../src/events/execution-tree.js';
import type { TerminateReason } from '../../../src/contracts/run-result.js';
import { addUsage } from '../../../src/model/types.js';
import type { CadreEvent, RunEvent, Usage } from '../api/wire-types.js';

/** One execution of the agent tree (the root agent or a subagent) and what it did. */
export interface ExecutionNode {
  executionId: string;
  parentId?: string;
  depth: number;
  agent: string;
  events: CadreEvent[];
  children: ExecutionNode[];
  startedAt: string;
  endedAt: string;
  durationMs: number;
  usage: Usage;
  /** As the shared reducer folds it: how far the execution got, and why it ended. */
  status: ExecutionStatus;
  terminateReason?: TerminateReason;
  /** Calls started and not answered yet (a call waiting for approval stays open). */
  openCallIds: string[];
}

/**
 * Nests executions as the shared reducer places them (events in seq order);
 * each keeps its own events, in that order. An execution only announced by
 * its parent, with no event of its own yet, is not shown.
 */
export function buildExecutionTree(events: readonly RunEvent[]): ExecutionNode[] {
  const ordered = [...events].sort((a, b) => a.seq - b.seq).map(({ event }) => event);
  const tree = foldEvents(ordered);
  const own = new Map<string, CadreEvent[]>();
  for (const event of ordered) {
    const list = own.get(event.executionId);
    if (list) list.push(event);
    else own.set(event.executionId, [event]);
  }
  const view = (node: TreeNode): ExecutionNode => {
    const startedAt = node.startedAt ?? '';
    const endedAt = node.endedAt ?? startedAt;
    return {
      executionId: node.executionId,
      ...(node.parentId ? { parentId: node.parentId } : {}),
      depth: node.depth,
      agent: node.agent,
      events: own.get(node.executionId) ?? [],
      children: shown(childNodes(tree, node.executionId)).map(view),
      startedAt,
      endedAt,
      durationMs: Date.parse(endedAt) - Date.parse(startedAt),
      usage: node.usage,
      status: node.status,
      ...(node.terminateReason ? { terminateReason: node.terminateReason } : {}),
      openCallIds: Object.keys(node.openCalls),
    };
  };
  return shown(rootNodes(tree)).map(view);
}

/** Executions with events of their own, in the order their first event came. */
const shown = (nodes: readonly TreeNode[]): TreeNode[] =>
  nodes
    .filter((node) => node.firstSeq !== undefined)
    .sort((a, b) => (a.firstSeq ?? 0) - (b.firstSeq ?? 0));

/** Tokens of a node and everything under it. */
export function treeUsage(node: ExecutionNode): Usage {
  return node.children.reduce((sum, child) => addUsage(sum, treeUsage(child)), node.usage);
}

/** A row of the timeline: deltas of one kind are merged so a long answer is one row. */
export type TimelineRow =
  | { kind: 'event'; event: CadreEvent; text: string; durationMs?: number }
  | { kind: 'child'; node: ExecutionNode };

export function timelineRows(node: ExecutionNode): TimelineRow[] {
  const rows: TimelineRow[] = [];
  const placed = new Set<string>();
  for (const event of node.events) {
    const last = rows.at(-1);
    const isDelta = event.type === 'text_delta' || event.type === 'thought_delta';
    if (isDelta && last?.kind === 'event' && last.event.type === event.type) {
      last.text += event.message;
      continue;
    }
    const durationMs =
      event.type === 'tool_result' && typeof event.data.durationMs === 'number'
        ? event.data.durationMs
        : undefined;
    rows.push({
      kind: 'event',
      event,
      text: rowText(event),
      ...(durationMs === undefined ? {} : { durationMs }),
    });
    const child = node.children.find((c) => c.executionId === event.data.executionId);
    if (event.type === 'subagent_started' && child && !placed.has(child.executionId)) {
      placed.add(child.executionId);
      rows.push({ kind: 'child', node: child });
    }
  }
  for (const child of node.children)
    if (!placed.has(child.executionId)) rows.push({ kind: 'child', node: child });
  return rows;
}

/** A row's text: the event's message, with the token figures of a summarised conversation. */
function rowText(event: CadreEvent): string {
  if (event.type !== 'context_compacted') return event.message;
  const { tokensBefore, tokensAfter } = event.data;
  const figures =
    typeof tokensBefore === 'number' && typeof tokensAfter === 'number'
      ? ` (${tokensBefore.toLocaleString('en-US')} → about ${tokensAfter.toLocaleString('en-US')} tokens)`
      : '';
  return `Earlier conversation summarised${figures}`;
}
