import type { AgentView, ThreadView } from '../api/wire-types.js';
import { agentLabel } from './agent-choice.js';
import type { RunSummary } from './run-outcome.js';

/**
 * The agent a thread runs: the thread's own (servers that store it), else
 * the agent of its newest run; undefined for a thread with no run yet.
 */
export function threadAgent(
  view: ThreadView | undefined,
  runs: Record<string, RunSummary>,
): string | undefined {
  const stated = (view as (ThreadView & { agent?: unknown }) | undefined)?.agent;
  const own = (view?.thread as { agent?: unknown } | undefined)?.agent;
  if (typeof stated === 'string' && stated) return stated;
  if (typeof own === 'string' && own) return own;
  const newest = view?.messages.findLast((m) => m.runId && runs[m.runId])?.runId;
  return newest ? runs[newest]?.agent : undefined;
}

/** The picker's value for an agent: empty for the server's default, which it lists first. */
export function pickerValue(agents: readonly AgentView[], agent: string): string {
  return agents.some((a) => a.name === agent && !a.default) ? agent : '';
}

/** The name on an agent's replies: its display name when the server lists one. */
export function replyName(agents: readonly AgentView[], agent: string | undefined): string {
  if (!agent) return 'Assistant';
  const listed = agents.find((a) => a.name === agent);
  return listed ? agentLabel(listed) : agent;
}
