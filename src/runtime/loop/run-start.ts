import type { AgentInput } from '../../contracts/agent.js';
import type { AwaitedCall, RunState } from '../../contracts/run-state.js';
import { ConfigError } from '../../errors/cadre-error.js';
import type { FunctionCallPart } from '../../model/types.js';
import type { ResumeDecision } from '../../contracts/confirmation.js';

/** What a new run carries to the loop. */
export interface NewRun {
  /** What a code agent is given (default: its prompt from the inputs, with history and memory). */
  input?: AgentInput;
}

/**
 * Where a run begins: afresh, from a pause with a decision for every
 * waiting call, or from the last stored state of a process that stopped.
 * The one union of how a run starts; a caller adds what its new runs carry
 * (the server: the start job's prompt and history).
 */
export type RunStart<New extends object = NewRun> =
  | ({ kind: 'new' } & New)
  | {
      kind: 'resume';
      state: Readonly<RunState>;
      decisions: Readonly<Record<string, ResumeDecision>>;
    }
  | { kind: 'recover'; state: Readonly<RunState> };

export const NEW_RUN: RunStart = { kind: 'new' };

/** A stored run must be where its start says: paused with every decision, or still running. */
export function checkStart(start: RunStart<object>): void {
  switch (start.kind) {
    case 'new':
      return;
    case 'resume': {
      const { state: stored, decisions } = start;
      if (stored.status !== 'paused' || (!stored.pendingTurn && !stored.code))
        throw new ConfigError(`Run ${stored.runId} is not waiting for approval.`);
      const deferred = Object.entries(decisions).filter(([, d]) => d.kind === 'pause');
      if (deferred.length > 0)
        throw new ConfigError(
          `A resumed call needs a decision, not "pause" (${deferred.map(([id]) => id).join(', ')}).`,
        );
      // Only the ids are read: no preview is made for a check.
      const missing = awaitedCalls(stored, () => '').filter((c) => !decisions[c.callId]);
      if (missing.length > 0)
        throw new ConfigError(
          `No decision for call${missing.length > 1 ? 's' : ''} ${missing.map((c) => c.callId).join(', ')}.`,
        );
      return;
    }
    case 'recover':
      if (start.state.status !== 'running')
        throw new ConfigError(`Run ${start.state.runId} was not running (${start.state.status}).`);
      return;
    default:
      start satisfies never;
  }
}

/** Every call of the tree waiting for a decision: this turn's own, then those of its paused subagents. */
export function awaitedCalls(
  state: Readonly<RunState>,
  preview: (call: FunctionCallPart) => string,
): AwaitedCall[] {
  if (state.code)
    return Object.values(state.code.spawns).flatMap((s) => ('child' in s ? s.child.pending : []));
  const pending = state.pendingTurn;
  if (!pending) return [];
  return pending.calls.flatMap((call, i) => {
    if (pending.responses[i] !== null) return [];
    const child = pending.children?.[call.id];
    if (child) return child.pending;
    const binding = pending.bindings?.[call.id];
    return [
      {
        callId: call.id,
        tool: call.name,
        args: call.args,
        preview: preview(call),
        ...(binding ? { binding } : {}),
      },
    ];
  });
}
