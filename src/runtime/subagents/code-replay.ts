import type { AgentInput, SpawnRequest } from '../../contracts/agent.js';
import type { RunResult } from '../../contracts/run-result.js';
import type { AwaitedCall, CodeMemo } from '../../contracts/run-state.js';
import {
  MODEL_SPECIFICATION_VERSION,
  type ModelChunk,
  type ModelClient,
} from '../../model/types.js';
import { canonicalHash } from '../../util/canonical-json.js';
import type { ResumeDecision } from '../../contracts/confirmation.js';
import { decisionsFor, ParentCallPaused } from './child-pause.js';
import { entryName, type SpawnMode } from './spawn-child.js';

/**
 * How a code agent (a router, a workflow) waits for a person: its code
 * cannot be stored, so it runs again on resume, answered from what it did
 * before: the same model replies in order, each finished child's result,
 * and each paused child resumed where it stopped. A child that pauses holds
 * its call open; once nothing else is in flight the run stops, to be
 * resumed later.
 */
export interface CodeReplay {
  /** What this segment did, to store with the paused run. */
  memo: CodeMemo;
  /** Aborts once every child still in flight is waiting for a person. */
  stopped: AbortSignal;
  /** The calls waiting, ids as the parent's tree knows them. */
  pending(): AwaitedCall[];
  model(client: ModelClient): ModelClient;
  /**
   * Counts one event the agent emits; false while the replay is re-telling
   * what the run already emitted before it paused (same replies and results,
   * so the same events in the same order).
   */
  fresh(): boolean;
  spawn(
    request: SpawnRequest,
    run: (mode: SpawnMode) => Promise<RunResult>,
    replayed: (result: RunResult) => void,
  ): Promise<RunResult>;
}

export function codeReplay(
  input: AgentInput,
  before: CodeMemo | undefined,
  decisions: Readonly<Record<string, ResumeDecision>>,
): CodeReplay {
  const memo: CodeMemo = { input, models: [], spawns: {}, events: 0 };
  const told = before?.events ?? 0;
  let events = 0;
  const counts = new Map<string, number>();
  const stop = new AbortController();
  let inflight = 0;
  let paused = 0;
  // Checked a tick later: the agent may be about to start its next call.
  const settle = (): void => {
    if (paused === 0 || inflight !== paused) return;
    setImmediate(() => {
      if (inflight === paused && !stop.signal.aborted)
        stop.abort(new Error('waiting for approval'));
    });
  };
  const held = (): Promise<never> =>
    new Promise((_, reject) =>
      stop.signal.addEventListener('abort', () => reject(stop.signal.reason as Error), {
        once: true,
      }),
    );
  let models = 0;
  return {
    memo,
    stopped: stop.signal,
    pending: () => Object.values(memo.spawns).flatMap((s) => ('child' in s ? s.child.pending : [])),
    fresh: () => {
      events++;
      memo.events = events;
      return events > told;
    },
    model: (client) => ({
      specificationVersion: MODEL_SPECIFICATION_VERSION,
      provider: client.provider,
      async *generate(request, signal) {
        const index = models++;
        const chunks: ModelChunk[] = [];
        memo.models[index] = chunks;
        const recorded = before?.models[index];
        if (recorded) {
          for (const chunk of recorded) {
            chunks.push(chunk);
            yield chunk;
          }
          return;
        }
        inflight++;
        try {
          for await (const chunk of client.generate(request, signal)) {
            chunks.push(chunk);
            yield chunk;
          }
        } catch (error) {
          // A reply cut short is not replayed as if it were whole: the call is made again.
          memo.models[index] = null;
          throw error;
        } finally {
          inflight--;
          settle();
        }
      },
    }),
    async spawn(request, run, replayed) {
      const base = `${entryName(request.target)}:${canonicalHash(request.inputs)}`;
      const n = (counts.get(base) ?? 0) + 1;
      counts.set(base, n);
      const key = `${base}#${n}`;
      const known = before?.spawns[key];
      if (known && 'result' in known) {
        memo.spawns[key] = known;
        replayed(known.result);
        return known.result;
      }
      const resume =
        known && 'child' in known
          ? { child: known.child, decisions: decisionsFor(known.child.scope, decisions) }
          : undefined;
      inflight++;
      try {
        const result = await run({ canPause: true, ...(resume ? { resume } : {}) });
        memo.spawns[key] = { result };
        inflight--;
        settle();
        return result;
      } catch (error) {
        if (!(error instanceof ParentCallPaused)) {
          inflight--;
          settle();
          throw error;
        }
        memo.spawns[key] = { child: error.child };
        paused++;
        settle();
        return held();
      }
    },
  };
}
