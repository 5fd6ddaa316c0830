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
}

const zeroUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  thoughtTokens: 0,
  totalTokens: 0,
});
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

function addUsage(usage: Usage, data: Record<string, unknown>): Usage {
  const input = num(data.inputTokens);
  const output = num(data.outputTokens);
  const thought = num(data.thoughtTokens);
  const cost =
    typeof data.costUsd === 'number' ? (usage.costUsd ?? 0) + data.costUsd : usage.costUsd;
  return {
    inputTokens: usage.inputTokens + input,
    outputTokens: usage.outputTokens + output,
    thoughtTokens: usage.thoughtTokens + thought,
    totalTokens: usage.totalTokens + (num(data.totalTokens) || input + output + thought),
    ...(cost === undefined ? {} : { costUsd: cost }),
  };
}

/** Nests executions by parentExecutionId; events keep their seq order inside each. */
export function buildExecutionTree(events: readonly RunEvent[]): ExecutionNode[] {
  const nodes = new Map<string, ExecutionNode>();
  const ordered = [...events].sort((a, b) => a.seq - b.seq);
  for (const { event } of ordered) {
    let node = nodes.get(event.executionId);
    if (!node) {
      node = {
        executionId: event.executionId,
        ...(event.parentExecutionId ? { parentId: event.parentExecutionId } : {}),
        depth: event.depth,
        agent: event.path.at(-1) ?? 'agent',
        events: [],
        children: [],
        startedAt: event.timestamp,
        endedAt: event.timestamp,
        durationMs: 0,
        usage: zeroUsage(),
      };
      nodes.set(event.executionId, node);
    }
    node.events.push(event);
    node.endedAt = event.timestamp;
    node.durationMs = Date.parse(node.endedAt) - Date.parse(node.startedAt);
    if (event.type === 'usage') node.usage = addUsage(node.usage, event.data);
  }
  const roots: ExecutionNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Tokens of a node and everything under it. */
export function treeUsage(node: ExecutionNode): Usage {
  return node.children.reduce((sum, child) => addUsage(sum, { ...treeUsage(child) }), node.usage);
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
